// Stub: replaced by the implementation (the tests of item 12 are written first).
export function controlSettings(_options: { hostname: string; controlToken?: string }): { controlToken?: string; hostnames: string[]; warning?: string } {
  return { hostnames: [] };
}
