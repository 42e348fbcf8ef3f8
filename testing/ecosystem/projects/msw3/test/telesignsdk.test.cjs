// The same in a CommonJS project: @x/emulator/msw's require build loads msw 3 (ESM only) through
// Node 22's require(esm).
const { after, before, test } = require('node:test');
const { setupServer } = require('msw/node');
const { createEmulator, DEFAULT_CUSTOMER } = require('@x/emulator');
const { emulatorHandlers } = require('@x/emulator/msw');
const TeleSign = require('telesignsdk');
const { mswOfficialCases } = require('../shared/msw-official-cases.cjs');

mswOfficialCases({ test, before, after, label: 'msw 3, CommonJS' }, { setupServer }, { createEmulator, DEFAULT_CUSTOMER, emulatorHandlers }, TeleSign, { onUnhandledFrame: 'error' });
