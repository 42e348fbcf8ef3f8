// `#platform` on Node (the `node` export condition, when no deno/bun/worker condition comes
// first): native HMAC from node:crypto and the node:http sender, without any option.
import { nodeMac } from '@x/auth/node';
import type { Platform } from '../transport/sender.js';
import { createNodeSender } from './send.js';

export const platform: Platform = { mac: nodeMac, createSender: () => createNodeSender() };
