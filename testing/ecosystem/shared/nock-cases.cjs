// What a user of nock expects, written once and run by each test file with its own module system's
// build of nock and of @x/client (nock.test.mjs imports, nock.test.cjs requires): a mocked request
// is answered by nock, and after disableNetConnect() an unmocked one is refused before anything
// is sent: the real counting server on 127.0.0.1 counts 0 until enableNetConnect lets it through.
const assert = require('node:assert/strict');
const { credentials, startCountingServer } = require('./counting-server.cjs');

const referenceId = '0123456789ABCDEF0123456789ABCDEF';

/**
 * @param {{ test: Function, before: Function, after: Function, label: string }} runner the test runner's
 *   functions, and what the test names start with (the module system)
 * @param {any} nock the nock module
 * @param {{ createClient: Function }} sdk
 */
function nockCases({ test, before, after, label }, nock, sdk) {
  let real;
  before(async () => {
    real = await startCountingServer();
    nock.disableNetConnect();
  });
  after(async () => {
    nock.cleanAll();
    nock.enableNetConnect();
    await real.close();
  });

  test(`${label}: a mocked POST /v1/messaging of a client with default options is answered by nock`, async () => {
    const scope = nock(real.url)
      .post('/v1/messaging', { phone_number: '15555551234', message: 'hello from nock', message_type: 'ARN' })
      .matchHeader('authorization', new RegExp(`^TSA ${credentials.customerId}:`))
      .reply(200, { reference_id: 'NOCK0000000000000000000000000001', status: { code: 290, description: 'Message in progress' } });
    try {
      const client = sdk.createClient({ ...credentials, baseUrl: real.url });
      const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello from nock', messageType: 'ARN' });
      assert.equal(data.reference_id, 'NOCK0000000000000000000000000001');
      scope.done();
      assert.deepEqual(real.requests, [], 'the mocked request reached the real server');
    } finally {
      nock.cleanAll();
    }
  });

  test(`${label}: after disableNetConnect() an unmocked request is refused and never sent`, async () => {
    const client = sdk.createClient({ ...credentials, baseUrl: real.url });
    await assert.rejects(client.messaging.status(referenceId));
    await assert.rejects(client.messaging.send({ phoneNumber: '15555551234', message: 'must not leave', messageType: 'ARN' }));
    assert.deepEqual(real.requests, [], 'an unmocked request reached the real server');
  });

  test(`${label}: enableNetConnect('127.0.0.1') lets it through (the counter counts)`, async () => {
    nock.enableNetConnect('127.0.0.1');
    try {
      const from = real.requests.length;
      const client = sdk.createClient({ ...credentials, baseUrl: real.url });
      await client.messaging.status(referenceId);
      assert.deepEqual(real.requests.slice(from), [{ method: 'GET', url: `/v1/messaging/${referenceId}` }]);
    } finally {
      nock.disableNetConnect();
    }
  });
}

module.exports = { nockCases };
