/** Faults to inject, for resilience tests. Each applies `times` times (default 1; Infinity for always). */
export type Fault =
  | { type: 'latency'; ms: number }
  | { type: 'status'; status: 429 | 500 | 502 | 503 | 504; retryAfterSeconds?: number }
  /** Process the request (state changes, SMS sent), then drop the connection without an answer. */
  | { type: 'drop' };

export type FaultRule = Fault & {
  times?: number;
  /** Only requests with this method. */
  method?: string;
  /** Only paths starting with this. */
  path?: string;
};

export class Faults {
  private rules: Array<FaultRule & { left: number }> = [];

  add(rule: FaultRule): void {
    const times = rule.times ?? 1;
    if (!(times > 0)) throw new RangeError('times must be positive.');
    this.rules.push({ ...rule, left: times });
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map(({ left, ...rule }) => ({ ...rule, times: left }));
  }

  /** How many rules are active (0: the request path skips fault matching). */
  get size(): number {
    return this.rules.length;
  }

  /** Takes the first matching rule of a type, counting one use. */
  take<T extends Fault['type']>(type: T, method: string, path: string): Extract<FaultRule, { type: T }> | undefined {
    const index = this.rules.findIndex(
      (r) => r.type === type && (!r.method || r.method.toUpperCase() === method) && (!r.path || path.startsWith(r.path)),
    );
    if (index < 0) return undefined;
    const rule = this.rules[index]!;
    if (--rule.left <= 0) this.rules.splice(index, 1);
    return rule as unknown as Extract<FaultRule, { type: T }>;
  }
}
