// The official client through @x/emulator/msw in an ESM project: msw's and the emulator's import builds.
import { after, before, test } from 'node:test';
import { setupServer } from 'msw/node';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { emulatorHandlers } from '@x/emulator/msw';
import TeleSign from 'telesignsdk';
import { mswOfficialCases } from '../shared/msw-official-cases.cjs';

mswOfficialCases({ test, before, after, label: 'ESM' }, { setupServer }, { createEmulator, DEFAULT_CUSTOMER, emulatorHandlers }, TeleSign);
