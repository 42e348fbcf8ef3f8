// The emulator's in-process entry for its own test kit (the msw bridge, a separate bundle): the
// answer and whether any route served the request. Under a registered symbol, so that every copy
// of the package finds it; not part of the public API.
import type { EmulatorEnv } from './types.js';

export const SERVE: unique symbol = Symbol.for('@x/emulator/serve') as never;

export type Serve = (request: Request) => Promise<{ response: Response; notEmulated: boolean }>;

/** Notes on the request's env that no route serves it (the emulator's 404 for an unknown method or path). */
export function markNotEmulated(c: { env: EmulatorEnv | undefined }): void {
  if (c.env) c.env.notEmulated = true;
}
