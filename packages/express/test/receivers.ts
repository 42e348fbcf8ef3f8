// The Express receivers of the shared exactly-once scenarios, on this package's sources.
import { createMemoryReplayStore } from '@x/auth';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createSignedCallback } from '@x/webhooks/testing';
import express5 from 'express';
import express4 from 'express4';
import { toolsFrom } from '../../../testing/exactly-once.js';
import { expressReceiver } from '../../../testing/receivers.js';
import { verifyCallbacks } from '../src/index.js';

export { listen } from '../../../testing/receivers.js';
export const credentials = DEFAULT_CUSTOMER;
export const tools = toolsFrom({ credentials, createSignedCallback, createClient, startEmulator });
type ExpressModule = typeof express5;
export const frameworks: Array<[string, ExpressModule, boolean]> = [
  ['express 5', express5, true],
  ['express 4', express4 as unknown as ExpressModule, false],
];
export const receiverFor = (express: ExpressModule, asyncHandlers: boolean) => expressReceiver(express, verifyCallbacks, credentials, asyncHandlers);

export const memoryStore = () => {
  let now = Date.now();
  const store = createMemoryReplayStore({ now: () => now });
  return { store, leaseMs: 30_000, outlive: (ms: number) => void (now += ms + 1) };
};
