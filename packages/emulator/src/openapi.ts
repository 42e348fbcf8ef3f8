/** The OpenAPI 3.1 document of what the emulator serves (filled in below). */
export function openApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'x-emulator', version: '0.1.0' }, paths: {} };
}
