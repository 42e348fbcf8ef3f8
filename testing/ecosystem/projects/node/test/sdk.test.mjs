// node --test, ESM: the packages' import builds.
import { after, before, test } from 'node:test';
import { createClient, AuthenticationError } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import { sdkCases } from '../shared/sdk-cases.cjs';

sdkCases({ test, before, after, label: 'ESM' }, { createClient, AuthenticationError, createEmulator, DEFAULT_CUSTOMER, startEmulator, verifyCallback, createSignedCallback });
