// One header of the request being answered, as its `Request` has it: the Node server builds a
// Request too, so a request over the network and one through `emulator.fetch` are read alike.

/** Any Hono context of the emulator's apps. */
export interface HeaderContext {
  req: { raw: Request };
}

/** One header of the request (lower-case name), as `Headers.get` gives it; undefined when absent. */
export function headerOf(c: HeaderContext, name: string): string | undefined {
  return c.req.raw.headers.get(name) ?? undefined;
}
