// `#platform` everywhere but Node (Deno, Bun, workers, browsers, and any runtime without a
// condition of its own): nothing added, the global fetch.
import type { Platform } from './transport/sender.js';

export const platform: Platform = { createSender: undefined };
