// `#platform` on Node (the `node` export condition, when no deno/bun/worker condition comes
// first): the node:http sender, without any option. (The HMAC is @x/auth's: node:crypto on Node,
// chosen by its own export condition.)
import type { Platform } from '../transport/sender.js';
import { createNodeSender } from './send.js';

export const platform: Platform = { createSender: () => createNodeSender() };
