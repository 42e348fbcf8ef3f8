// The official client through @x/emulator/msw with msw 3 in an ESM project on Node 22.
import { after, before, test } from 'node:test';
import { setupServer } from 'msw/node';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { emulatorHandlers } from '@x/emulator/msw';
import TeleSign from 'telesignsdk';
import { mswOfficialCases } from '../shared/msw-official-cases.cjs';

mswOfficialCases({ test, before, after, label: 'msw 3, ESM' }, { setupServer }, { createEmulator, DEFAULT_CUSTOMER, emulatorHandlers }, TeleSign, { onUnhandledFrame: 'error' });
