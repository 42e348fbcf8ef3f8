// The official client through @x/emulator/msw in a CommonJS project: msw's and the emulator's require builds.
const { after, before, test } = require('node:test');
const { setupServer } = require('msw/node');
const { createEmulator, DEFAULT_CUSTOMER } = require('@x/emulator');
const { emulatorHandlers } = require('@x/emulator/msw');
const TeleSign = require('telesignsdk');
const { mswOfficialCases } = require('../shared/msw-official-cases.cjs');

mswOfficialCases({ test, before, after, label: 'CommonJS' }, { setupServer }, { createEmulator, DEFAULT_CUSTOMER, emulatorHandlers }, TeleSign);
