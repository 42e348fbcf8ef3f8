// The portable suite, run in every runtime (bundled by testing/runtimes/harness.mjs): the BUILT
// @x/auth and @x/client reproduce the golden vectors and sign a request that verifies; the emulator's
// portable core runs in-process. Returns [name, ok, detail] rows, one per name in `names`.
import { callbackSignature, enableSha1, signRequest, verifyRequest } from '@x/auth';
import { parseHttpDate } from '@x/auth/protocol';
import { createClient } from '@x/client';
import { createIdempotency } from '@x/client/idempotency';
import { verifyCallback } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import digest from '../../../packages/auth/vectors/digest.json' with { type: 'json' };
import callback from '../../../packages/auth/vectors/callback.json' with { type: 'json' };

enableSha1(); // the golden vectors include HMAC-SHA1, which signers load only when asked

export const names = [
  '@x/auth golden vectors',
  '@x/auth callback vector',
  '@x/client signs a verifiable request',
  '@x/webhooks verifies a signed callback',
  '@x/emulator in-process with @x/client (verify flow)',
  '@x/client/idempotency: one SMS per key (memory store)',
  '@x/emulator Voice Verify with @x/client (call, check)',
  '@x/emulator Verify API with @x/client (create, get, finalize) and PhoneID cleansing',
];

export async function check() {
  const rows = [];
  const credentials = { customerId: digest.customerId, apiKey: digest.apiKey };
  let vectorsOk = true;
  for (const v of digest.vectors) {
    const signed = signRequest(v.request, credentials, v.options);
    const verified = await verifyRequest({ ...v.request, headers: signed.headers }, { credentials: () => credentials, now: () => parseHttpDate(v.options.date) });
    if (signed.headers.authorization !== v.expected.authorization || !verified.ok) vectorsOk = false;
  }
  rows.push(['@x/auth golden vectors', vectorsOk, `${digest.vectors.length} vectors`]);
  rows.push(['@x/auth callback vector', callbackSignature(callback.body, callback.apiKey) === callback.signature, '']);
  const seen = [];
  const client = createClient({ ...credentials, baseUrl: 'https://service.test', dangerouslyAllowBrowser: true, fetch: async (url, init) => {
    seen.push({ url, init });
    return new Response('{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":290,"description":"Message in progress","updated_on":"x"}}', { status: 200, headers: { 'content-type': 'application/json' } });
  } });
  const sent = await client.messaging.send({ phoneNumber: '15555551234', message: 'hi', messageType: 'ARN' });
  const { init } = seen[0];
  const result = await verifyRequest({ method: 'POST', url: seen[0].url, headers: init.headers, body: init.body }, { credentials: () => credentials });
  rows.push(['@x/client signs a verifiable request', sent.data.status.code === 290 && result.ok, '']);
  const signedCallback = createSignedCallback({ reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'x', updated_on: 'y' } }, credentials);
  const verifiedCallback = await verifyCallback({ body: new TextEncoder().encode(signedCallback.body), headers: new Headers(signedCallback.headers) }, credentials);
  rows.push(['@x/webhooks verifies a signed callback', verifiedCallback.ok, '']);

  // The emulator's portable core, in-process, driven by the client: a full verification.
  const emulator = createEmulator({ deliveryDelayMs: 0 });
  try {
    const local = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch, dangerouslyAllowBrowser: true });
    const started = await local.verify.sms({ phoneNumber: '15555550100' });
    const code = emulator.outbox.latest('15555550100').code;
    const checked = await local.verify.check(started.data.reference_id, code);
    rows.push(['@x/emulator in-process with @x/client (verify flow)', checked.data.verify.code_state === 'VALID', '']);

    const once = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch, dangerouslyAllowBrowser: true, idempotency: createIdempotency() });
    const sms = { phoneNumber: '15555550111', message: 'Shipped', messageType: 'ARN' };
    const [first, second] = await Promise.all([once.messaging.send(sms, { idempotencyKey: 'k' }), once.messaging.send(sms, { idempotencyKey: 'k' })]);
    const third = await once.messaging.send(sms, { idempotencyKey: 'k' });
    const oneSms = emulator.outbox.list({ phoneNumber: '15555550111' }).length === 1;
    rows.push(['@x/client/idempotency: one SMS per key (memory store)', oneSms && second.data.reference_id === first.data.reference_id && third.data.reference_id === first.data.reference_id, '']);

    // The next operations: Voice Verify (call, check) and the Verify API (create, get, finalize),
    // which also runs the emulator's numbering plans (libphonenumber-js) and its scheduler.
    const call = await local.verify.call({ phoneNumber: '15555550005', ttsMessage: 'Code $$CODE$$' });
    const spoken = emulator.outbox.latest('15555550005');
    const callChecked = await local.verify.check(call.data.reference_id, spoken.code);
    rows.push(['@x/emulator Voice Verify with @x/client (call, check)', call.data.status.code === 103 && spoken.channel === 'voice' && callChecked.data.sub_resource === 'call' && callChecked.data.verify.code_state === 'VALID', '']);
    const created = await local.verifyApi.create({ phoneNumber: '447911123456', policy: [{ method: 'sms' }] });
    const fetched = await local.verifyApi.get(created.data.reference_id);
    const finalized = await local.verifyApi.finalize(created.data.reference_id, emulator.outbox.latest('447911123456').code);
    const pid = await local.phoneId.lookup('4407911123456');
    rows.push([
      '@x/emulator Verify API with @x/client (create, get, finalize) and PhoneID cleansing',
      created.data.status.code === 3001 && fetched.data.state === 'ONGOING' && finalized.data.status.code === 3900 && pid.data.numbering.cleansing.call.cleansed_code === 101,
      '',
    ]);
  } finally {
    emulator.close();
  }
  return rows;
}
