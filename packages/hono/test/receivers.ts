// The Hono receiver of the shared exactly-once scenarios, on this package's sources, served by
// @hono/node-server on 127.0.0.1.
import { serve } from '@hono/node-server';
import { createMemoryReplayStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createSignedCallback } from '@x/webhooks/testing';
import { Hono } from 'hono';
import { toolsFrom } from '../../../testing/exactly-once.js';
import { honoReceiver as receiver, listen } from '../../../testing/receivers.js';
import { verifyCallbacks } from '../src/index.js';

export const credentials = { customerId: DEFAULT_CUSTOMER.customerId, apiKey: DEFAULT_CUSTOMER.apiKey };
export const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });
export const honoReceiver = receiver(Hono, serve, verifyCallbacks, credentials);

export const memoryStore = () => {
  let now = Date.now();
  const store = createMemoryReplayStore({ now: () => now });
  return { store, leaseMs: 30_000, outlive: (ms: number) => void (now += ms + 1) };
};

/** Serves a Hono app on 127.0.0.1 and a free port. */
export const serveApp = (app: Hono<any>) => listen({ listen: (port, hostname, ready) => serve({ fetch: app.fetch, port, hostname }, ready) as never });
