// What a user of msw expects, written once and run by each test file with its own module system's
// build of msw and of @x/client (msw.test.mjs imports, msw.test.cjs requires): a client with
// default options is seen by setupServer, and with onUnhandledRequest: 'error' nothing unmocked
// leaves. Requests go to a real counting server on 127.0.0.1, so one that escapes is counted
// (and never reaches the internet).
const assert = require('node:assert/strict');
const { URLSearchParams } = require('node:url');
const { credentials, startCountingServer } = require('./counting-server.cjs');

const phoneNumber = '15555551234';

/**
 * @param {{ test: Function, before: Function, after: Function, label: string }} runner the test runner's
 *   functions, and what the test names start with (the module system)
 * @param {{ setupServer: Function, http: any, HttpResponse: any, passthrough: Function }} msw
 * @param {{ createClient: Function }} sdk
 * @param {object} [listen] setupServer's listen options that fail an unhandled request: msw 2 spells
 *   it `onUnhandledRequest`, msw 3 `onUnhandledFrame`
 */
function mswCases({ test, before, after, label }, msw, sdk, listen = { onUnhandledRequest: 'error' }) {
  let real;
  let mock;
  const seen = [];
  before(async () => {
    real = await startCountingServer();
    mock = msw.setupServer(
      msw.http.post(`${real.url}/v1/messaging`, async ({ request }) => {
        seen.push({ authorization: request.headers.get('authorization'), body: new URLSearchParams(await request.text()) });
        return msw.HttpResponse.json({ reference_id: 'MSW00000000000000000000000000001', status: { code: 290, description: 'Message in progress' } });
      }),
    );
    mock.listen(listen);
  });
  after(async () => {
    mock.close();
    await real.close();
  });

  test(`${label}: setupServer sees POST /v1/messaging of a client with default options and answers it`, async () => {
    const client = sdk.createClient({ ...credentials, baseUrl: real.url });
    const { data } = await client.messaging.send({ phoneNumber, message: 'hello from msw', messageType: 'ARN' });
    assert.equal(data.reference_id, 'MSW00000000000000000000000000001');
    assert.equal(seen.length, 1);
    assert.match(seen[0].authorization, new RegExp(`^TSA ${credentials.customerId}:`));
    assert.equal(seen[0].body.get('message'), 'hello from msw');
    assert.deepEqual(real.requests, [], 'the request reached the real server');
  });

  test(`${label}: an unhandled request fails with ${JSON.stringify(listen)} and is not sent`, async () => {
    const client = sdk.createClient({ ...credentials, baseUrl: real.url });
    await assert.rejects(client.messaging.status('0123456789ABCDEF0123456789ABCDEF'));
    assert.deepEqual(real.requests, [], 'the unhandled request reached the real server');
  });

  test(`${label}: passthrough() lets one through to the real server (the counter counts)`, async () => {
    mock.use(msw.http.get(`${real.url}/v1/messaging/:id`, () => msw.passthrough()));
    const from = real.requests.length;
    const client = sdk.createClient({ ...credentials, baseUrl: real.url });
    await client.messaging.status('0123456789ABCDEF0123456789ABCDEF');
    assert.deepEqual(real.requests.slice(from), [{ method: 'GET', url: '/v1/messaging/0123456789ABCDEF0123456789ABCDEF' }]);
    mock.resetHandlers();
  });
}

module.exports = { mswCases };
