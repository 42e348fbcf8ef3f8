// Every way an error gets printed or shipped: console.error / util.inspect (hidden properties
// included), JSON.stringify, String, the stack, and a pino-style serializer (own enumerable
// properties, message, stack, then the cause chain the same way).
import { inspect } from 'node:util';

function serialized(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const { cause } = error as { cause?: unknown };
  return { ...error, type: error.name, message: error.message, stack: error.stack, ...(cause !== undefined ? { cause: serialized(cause, depth + 1) } : {}) };
}

/** All the text an error shows in logs and error trackers. */
export function printed(error: unknown): string {
  return [
    inspect(error, { showHidden: true, depth: 10 }),
    inspect(error, { depth: 10 }),
    JSON.stringify(error),
    JSON.stringify(serialized(error)),
    String(error),
    (error as Error | undefined)?.stack ?? '',
  ].join('\n');
}
