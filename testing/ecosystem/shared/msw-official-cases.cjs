// The official client (telesignsdk, from the npm registry) with its default host, answered by an
// in-process emulator through msw and @x/emulator/msw: written once, run by an ESM and a CommonJS
// test file with their module system's builds of msw and @x/emulator. Nothing leaves the process:
// msw intercepts fetch (which telesignsdk uses) and an unhandled request fails.
const assert = require('node:assert/strict');

/**
 * @param {{ test: Function, before: Function, after: Function, label: string }} runner
 * @param {{ setupServer: Function }} msw
 * @param {{ createEmulator: Function, DEFAULT_CUSTOMER: { customerId: string, apiKey: string }, emulatorHandlers: Function }} sdk
 * @param {any} TeleSign the official client's class
 * @param {object} [listen] setupServer's listen options that fail an unhandled request (msw 2:
 *   `onUnhandledRequest`, msw 3: `onUnhandledFrame`)
 */
function mswOfficialCases({ test, before, after, label }, msw, sdk, TeleSign, listen = { onUnhandledRequest: 'error' }) {
  const emulator = sdk.createEmulator();
  const server = msw.setupServer(...sdk.emulatorHandlers(emulator));
  before(() => server.listen(listen));
  after(() => {
    server.close();
    emulator.close();
  });
  // telesignsdk leaves its timeout's timer running after each answer; a short one lets node --test end sooner.
  const timeoutMs = 3_000;
  const call = (fn) => new Promise((resolve, reject) => fn((error, body) => (error ? reject(error) : resolve(body))));

  test(`${label}: telesignsdk sends an SMS to its default host; the emulator answers and its outbox holds it`, async () => {
    const client = new TeleSign(sdk.DEFAULT_CUSTOMER.customerId, sdk.DEFAULT_CUSTOMER.apiKey, undefined, timeoutMs); // undefined: its default host
    const sent = await call((cb) => client.sms.message(cb, '15555550190', `hello from telesignsdk (${label})`, 'ARN'));
    assert.equal(sent.status.code, 290);
    assert.equal(emulator.outbox.latest('15555550190')?.text, `hello from telesignsdk (${label})`);
    assert.equal(emulator.transactions.get(sent.reference_id)?.kind, 'sms');
  });

  test(`${label}: a wrong key is refused by the emulator's signature check`, async () => {
    const client = new TeleSign(sdk.DEFAULT_CUSTOMER.customerId, 'd3Jvbmcta2V5', undefined, timeoutMs);
    const body = await call((cb) => client.sms.message(cb, '15555550191', 'x', 'ARN'));
    assert.equal(body.status.code, 10008);
    assert.equal(emulator.outbox.latest('15555550191'), undefined);
  });
}

module.exports = { mswOfficialCases };
