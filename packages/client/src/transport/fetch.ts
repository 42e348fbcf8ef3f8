// The fetch the client calls, typed by what the client actually passes and reads, so that any
// WHATWG-compatible fetch fits without a cast: the runtime's global fetch, undici's, a worker's,
// createNodeFetch, a test double.

/** What the client passes to `fetch` with every attempt. */
export interface FetchInit {
  method: string;
  /** Lower-case names; Authorization included. */
  headers: Record<string, string>;
  /** The form or JSON body; absent for requests without one. */
  body?: string;
  /** Fires on the attempt's timeout or the caller's abort. */
  signal: AbortSignal;
  /** Redirects are never followed: the fetch must answer them as they are. */
  redirect: 'manual';
}

/** What the client reads of a streamed body: a web ReadableStream, or any async iterable of chunks (Node streams). */
export type FetchBody =
  | {
      getReader(): {
        read(): Promise<{ done: false; value: Uint8Array } | { done: true; value?: Uint8Array | undefined }>;
        cancel(reason?: unknown): Promise<void>;
        releaseLock(): void;
      };
      cancel(reason?: unknown): Promise<void>;
    }
  | AsyncIterable<Uint8Array | string>;

/** The parts of an answer the client reads: any WHATWG Response fits (a browser's, Node's, undici's). */
export interface FetchResponse {
  readonly status: number;
  readonly ok: boolean;
  /** `opaqueredirect` for a browser's answer to `redirect: 'manual'`. */
  readonly type?: string;
  readonly url?: string;
  readonly redirected?: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body: FetchBody | null;
  text(): Promise<string>;
}

/**
 * A fetch the client can use: called with the URL as a string and the init above, it resolves to
 * a Response (or anything with the parts above). `globalThis.fetch`, undici's `fetch` and
 * `createNodeFetch()` all fit.
 */
export type FetchFunction = (input: string, init: FetchInit) => Promise<FetchResponse>;
