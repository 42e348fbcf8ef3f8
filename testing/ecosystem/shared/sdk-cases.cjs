// The SDK in a user's project, written once and run by each test file with its own module
// system's build (sdk.test.mjs imports, sdk.test.cjs requires; Vitest imports): the client's
// default Node transport against the emulator over HTTP, the in-process emulator, callback
// verification, and what a test runner prints of an error.
const assert = require('node:assert/strict');
const { inspect } = require('node:util');

const delivered = '{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":200,"description":"Delivered to handset","updated_on":"2026-01-01T00:00:00Z"}}';

/**
 * @param {{ test: Function, before: Function, after: Function, label: string }} runner the test runner's
 *   functions, and what the test names start with (the module system)
 * @param {Record<string, any>} sdk createClient, AuthenticationError (@x/client), createEmulator,
 *   DEFAULT_CUSTOMER (@x/emulator), startEmulator (@x/emulator/node), verifyCallback (@x/webhooks),
 *   createSignedCallback (@x/webhooks/testing)
 */
function sdkCases({ test, before, after, label }, sdk) {
  const customer = sdk.DEFAULT_CUSTOMER;
  let server;
  before(async () => {
    server = await sdk.startEmulator({ port: 0 });
  });
  after(() => server.close());

  test(`${label}: the client with default options sends an SMS to the emulator over HTTP`, async () => {
    const client = sdk.createClient({ ...customer, baseUrl: server.url });
    const { data, status } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello over http', messageType: 'ARN' });
    assert.equal(status, 200);
    assert.equal(server.emulator.outbox.latest('15555551234')?.text, 'hello over http');
    assert.ok(server.emulator.transactions.get(data.reference_id), 'the emulator knows the transaction');
  });

  test(`${label}: the in-process emulator serves the client through its fetch`, async () => {
    const emulator = sdk.createEmulator();
    const client = sdk.createClient({ ...customer, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
    await client.messaging.send({ phoneNumber: '15555550100', message: 'in process', messageType: 'ARN' });
    assert.deepEqual(emulator.outbox.list().map((m) => m.text), ['in process']);
    emulator.close();
  });

  test(`${label}: a signed callback verifies; a tampered one is refused with a reason`, async () => {
    const { body, headers } = sdk.createSignedCallback(delivered, customer);
    const ok = await sdk.verifyCallback({ body, headers }, customer);
    assert.equal(ok.ok && ok.payload.reference_id, '0123456789ABCDEF0123456789ABCDEF');
    const tampered = await sdk.verifyCallback({ body: body.replace('"code":200', '"code":203'), headers }, customer);
    assert.equal(tampered.ok || tampered.reason, 'signature_mismatch');
  });

  test(`${label}: an AuthenticationError as a runner prints it (inspect, JSON) does not show the verification code`, async () => {
    const client = sdk.createClient({ customerId: customer.customerId, apiKey: Buffer.from('not the key').toString('base64'), baseUrl: server.url });
    const error = await client.verify.sms({ phoneNumber: '15555551234', verifyCode: '493817' }).then(
      () => assert.fail('a wrong key was accepted'),
      (e) => e,
    );
    assert.ok(error instanceof sdk.AuthenticationError, `expected an AuthenticationError, got ${inspect(error)}`);
    // (assert.ok, not doesNotMatch: a failure must not print the code either)
    assert.ok(!inspect(error, { depth: 10 }).includes('493817'), 'util.inspect (console.error) shows the verification code');
    assert.ok(!JSON.stringify(error).includes('493817'), 'JSON.stringify (loggers) shows the verification code');
  });
}

module.exports = { sdkCases };
