// What a transport tells its observers (the caller's hooks, the log): an attempt is sent, an answer
// arrived, a retry is scheduled, the request failed. Each event is made once and given to every
// observer that listens for it.
import type { ClientError } from '../errors.js';
import type { ApiResponse } from '../types.js';

interface Target {
  method: string;
  url: URL;
}

export interface Events {
  /** `headers` as sent: an observer that shows them redacts them. */
  request: Target & { attempt: number; headers: Record<string, string>; stringToSign: string | undefined };
  /** `outcome`: what the answer was classified as; `headers()` reads the answer's headers. */
  response: Target & { attempt: number; status: number; durationMs: number; headers: () => Headers; outcome: { result: ApiResponse<unknown> } | { error: ClientError } };
  retry: Target & { attempt: number; delayMs: number; error: ClientError };
  failure: Target & { attempts: number; durationMs: number; error: ClientError };
}

export type Observer = { [K in keyof Events]?: ((event: Events[K]) => void) | undefined };
