// The few members of Bun's and Deno's globals that README snippets call, so that the SDK side of
// those snippets is type-checked in Node (the runtimes' own type packages are not installed).
// The examples (examples/bun, examples/deno) run the real thing in each runtime.
export {};

declare global {
  const Bun: {
    env: Record<string, string | undefined>;
    serve(options: { fetch: (request: Request) => Response | Promise<Response>; port?: number; hostname?: string }): unknown;
  };
  namespace Deno {
    interface HttpClient { close(): void }
  }
  const Deno: {
    env: { get(name: string): string | undefined };
    serve(options: { port?: number; hostname?: string }, handler: (request: Request) => Response | Promise<Response>): unknown;
    createHttpClient(options: { proxy?: { url: string } }): Deno.HttpClient;
  };
}
