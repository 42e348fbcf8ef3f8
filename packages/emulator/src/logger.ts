/**
 * Where the emulator reports what went wrong: errors in a route (answered 500 JSON) and warnings
 * (a server reachable from other machines). Default: the console. Details never hold a secret:
 * no headers, no keys, no tokens.
 */
export interface Logger {
  error(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

export const consoleLogger: Logger = {
  error: (message, details) => console.error(`[x-emulator] ${message}`, ...(details ? [details] : [])),
  warn: (message, details) => console.warn(`[x-emulator] ${message}`, ...(details ? [details] : [])),
};

/** Reports through the logger; a logger that throws never changes an answer. */
export function report(logger: Logger, level: 'error' | 'warn', message: string, details?: Record<string, unknown>): void {
  try {
    logger[level](message, details);
  } catch {
    // The answer matters more than the log line.
  }
}
