// node --test, CommonJS: the packages' require builds.
const { after, before, test } = require('node:test');
const { createClient, AuthenticationError } = require('@x/client');
const { createEmulator, DEFAULT_CUSTOMER } = require('@x/emulator');
const { startEmulator } = require('@x/emulator/node');
const { verifyCallback } = require('@x/webhooks');
const { createSignedCallback } = require('@x/webhooks/testing');
const { sdkCases } = require('../shared/sdk-cases.cjs');

sdkCases({ test, before, after, label: 'CommonJS' }, { createClient, AuthenticationError, createEmulator, DEFAULT_CUSTOMER, startEmulator, verifyCallback, createSignedCallback });
