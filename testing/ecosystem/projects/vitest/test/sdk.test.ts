// Vitest, ESM: the packages' import builds, loaded by Node from node_modules as Vitest leaves them.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, test } from 'vitest';
import { createClient, AuthenticationError } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';

// The shared cases are CommonJS, loaded by Node as they are (not through Vite).
const { sdkCases } = createRequire(import.meta.url)('../shared/sdk-cases.cjs');

sdkCases({ test, before: beforeAll, after: afterAll, label: 'Vitest, ESM' }, { createClient, AuthenticationError, createEmulator, DEFAULT_CUSTOMER, startEmulator, verifyCallback, createSignedCallback });
