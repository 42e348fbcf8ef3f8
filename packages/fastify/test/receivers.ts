// The Fastify receiver of the shared exactly-once scenarios, on this package's sources.
import { createMemoryReplayStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify from 'fastify';
import { toolsFrom } from '../../../testing/exactly-once.js';
import { fastifyReceiver as receiver } from '../../../testing/receivers.js';
import { xVerification } from '../src/index.js';

export const credentials = DEFAULT_CUSTOMER;
export const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });
export const fastifyReceiver = receiver(Fastify, xVerification, credentials);

export const memoryStore = () => {
  let now = Date.now();
  const store = createMemoryReplayStore({ now: () => now });
  return { store, leaseMs: 30_000, outlive: (ms: number) => void (now += ms + 1) };
};
