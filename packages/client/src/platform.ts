// `#platform` everywhere but Node (Deno, Bun, workers, browsers, and any runtime without a
// condition of its own): nothing added. Pure HMAC, and the global fetch.
import type { Platform } from './transport/sender.js';

export const platform: Platform = { mac: undefined, createSender: undefined };
