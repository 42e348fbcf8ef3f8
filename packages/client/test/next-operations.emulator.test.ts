// The next operations of the client against the emulator, over HTTP on 127.0.0.1 and in-process:
// Voice Verify, completion, PhoneID variants and add-ons, Score, Intelligence on its own account,
// the Verify API with a fallback policy, Bulk SMS, and the callbacks of voice verify, bulk SMS,
// the Verify API and inbound SMS verified end to end with @x/webhooks' verifyCallback (built).
import { createEmulator, DEFAULT_CUSTOMER, type Emulator } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../src/index.js';
import { REF, SAMPLES } from './operation-samples.js';

type Verified = { ok: true; payload: Record<string, any>; header: string } | { ok: false; reason: string };
let verifyCallback: (input: { body: Uint8Array; headers: IncomingHttpHeaders }, options: { customerId: string; apiKey: string }) => Promise<Verified>;

const INTELLIGENCE = { customerId: '00000000-0000-4000-8000-0000000000c1', apiKey: btoa('intelligence account key') };

/** Our application's callback endpoint: every delivery, verified with @x/webhooks over the raw bytes. */
const received: Verified[] = [];
let receiver: Server;
let callbackUrl: string;

beforeAll(async () => {
  ({ verifyCallback } = (await import(new URL('../../webhooks/dist/index.js', import.meta.url).href)) as { verifyCallback: typeof verifyCallback });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const result = await verifyCallback({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers }, DEFAULT_CUSTOMER);
      received.push(result);
      res.writeHead(result.ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const options = () => ({
  deliveryDelayMs: 30,
  // A call is answered later than a message is delivered: a check sent right after the call
  // reaches the emulator before the answer (whose callback then carries the checked state), on a
  // loaded machine too.
  callDelayMs: 300,
  customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }],
  products: { intelligence: { customers: [INTELLIGENCE] } },
});

const payloads = () => received.map((r) => (r.ok ? r.payload : { rejected: r.reason }));

function operations(name: string, make: () => { client: Client; emulator: Emulator }) {
  describe(`next operations against the emulator (${name})`, () => {
    beforeEach(async () => {
      await make().emulator.idle();
      received.length = 0;
    });

    it('the emulator serves every operation of the client: no 404 or 405 for an operation it does not know', async () => {
      const { client } = make();
      for (const [operation, run] of Object.entries(SAMPLES)) {
        const outcome = await run(client).then(
          () => undefined,
          (error: { name?: string; status?: number; serviceCode?: number; body?: { status?: { description?: string }; errors?: Array<{ description?: string }> } }) => error,
        );
        if (outcome === undefined) continue;
        expect(outcome.name, operation).toBe('ApiError');
        const description = outcome.body?.errors?.[0]?.description ?? outcome.body?.status?.description ?? '';
        // The only failures allowed: the sample's made-up reference id, unknown (404 naming the reference).
        expect(operation, `${operation} answered ${outcome.status} ${outcome.serviceCode} "${description}"`).toMatch(/status|check|complete|get|finalize/);
        expect(outcome.status, operation).toBe(404);
        expect(description, operation).toMatch(/reference/i);
        expect(outcome.serviceCode, operation).not.toBe(-40005);
      }
      expect(REF).toMatch(/^[0-9A-F]{32}$/);
    });

    it('Voice Verify as the fallback when SMS fails on a landline: the call speaks the code, the check is VALID, the callback is signed', async () => {
      const { client, emulator } = make();
      const phone = '15555550005';
      const sms = await client.verify.sms({ phoneNumber: phone });
      await emulator.idle();
      expect((await client.verify.status(sms.data.reference_id)).data.status).toMatchObject({ code: 222, description: 'SMS not supported' });
      const call = await client.verify.call({ phoneNumber: phone, ttsMessage: 'Your Acme code is $$CODE$$', ucid: 'ATCK' });
      expect(call.status).toBe(200);
      expect(call.data).toMatchObject({ sub_resource: 'call', status: { code: 103 }, verify: { code_state: 'UNKNOWN' } });
      const spoken = emulator.outbox.latest(phone)!;
      expect(spoken.channel).toBe('voice');
      expect(spoken.text).toBe(`Your Acme code is ${spoken.code}`);
      const checked = await client.verify.check(call.data.reference_id, spoken.code!);
      expect(checked.data).toMatchObject({ sub_resource: 'call', verify: { code_state: 'VALID', code_entered: spoken.code } });
      await emulator.idle();
      expect((await client.verify.status(call.data.reference_id)).data.status).toMatchObject({ code: 100, description: 'Call answered' });
      const callback = payloads().find((p) => p.reference_id === call.data.reference_id);
      expect(callback).toMatchObject({ sub_resource: 'call', status: { code: 100 }, verify: { code_state: 'VALID' } });
      expect(received.every((r) => r.ok)).toBe(true);
    });

    it('completion of an own-code verification: 1900', async () => {
      const { client } = make();
      const started = await client.verify.sms({ phoneNumber: '15555550910', verifyCode: '31415' });
      const done = await client.verify.complete(started.data.reference_id);
      expect(done.data).toMatchObject({ reference_id: started.data.reference_id, sub_resource: 'sms', status: { code: 1900, description: 'Verify completion successfully recorded' } });
    });

    it('PhoneID standard, live, number deactivation and add-ons', async () => {
      const { client } = make();
      const standard = await client.phoneId.standard('447911123456');
      expect(standard.data).toMatchObject({ sub_resource: 'standard', errors: [], location: { country: { iso2: 'GG' } } });
      const live = await client.phoneId.live('15555550006', { ucid: 'BACS' });
      expect(live.data.live).toMatchObject({ subscriber_status: 'ACTIVE', roaming: 'ROAMING', roaming_country_iso2: 'MX' });
      const deactivation = await client.phoneId.deactivation('15555550008', { ucid: 'UNKN' });
      expect(deactivation.data.number_deactivation.last_deactivated).toMatch(/^\d{4}-\d\d-\d\d$/);
      const addons = await client.phoneId.lookup('15555550008', { addons: { sim_swap: {}, call_forward_detection: {}, contact: {} }, consent: { method: 1 } });
      expect(addons.data.sim_swap).toMatchObject({ risk_indicator: 4, status: { code: 2800 } });
      expect(addons.data.contact?.status.code).toBe(2800);
      expect(addons.data.status.code).toBe(300);
    });

    it('Score and Intelligence (on its own account): risk level and recommendation', async () => {
      const { client } = make();
      const score = await client.score.lookup('15555550003', { accountLifecycleEvent: 'create' });
      expect(score.data.risk).toEqual({ score: 700, level: 'medium-high', recommendation: 'block' });
      const intel = await client.intelligence.phone({ phoneNumber: '+1 555 555 0006', accountLifecycleEvent: 'transact' });
      expect(intel.data.risk).toMatchObject({ level: 'medium', recommendation: 'flag' });
      const wrongAccount = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: make().emulator.fetch, retry: false });
      await expect(wrongAccount.intelligence.phone({ phoneNumber: '15555550006', accountLifecycleEvent: 'create' })).rejects.toMatchObject({ status: 401, serviceCode: 10013 });
    });

    it('Email Intelligence (Basic, on its own account): the address cleansed, its domain facts and risk', async () => {
      const { client } = make();
      const ordinary = await client.intelligence.email({ emailAddress: 'Ada+news@Example.com', accountLifecycleEvent: 'create', externalId: 'signup-3', phoneNumber: '+1 555 555 0006' });
      expect(ordinary.data).toMatchObject({ external_id: 'signup-3', status: { code: 300 }, email_address_details: { cleansed: { email_address: 'ada@example.com', domain: 'example.com' }, cleansing_details: { tag: 'news', is_modified: true } }, intelligence_details: { risk: { recommendation: 'allow' } } });
      const disposable = await client.intelligence.email({ emailAddress: 'ada@mailinator.com', accountLifecycleEvent: 'sign-in' });
      expect(disposable.data.email_address_details?.domain_details?.general_info?.is_disposable).toBe(true);
      expect(disposable.data.intelligence_details?.risk).toMatchObject({ level: 'high', recommendation: 'block' });
      const wrongAccount = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: make().emulator.fetch, retry: false });
      await expect(wrongAccount.intelligence.email({ emailAddress: 'ada@example.com', accountLifecycleEvent: 'create' })).rejects.toMatchObject({ status: 401 });
    });

    it('Verify API with a fallback policy: SMS fails (...0001), WhatsApp delivers, finalize VERIFIES, the callback reports it', async () => {
      const { client, emulator } = make();
      const phone = '15555550001';
      const created = await client.verifyApi.create({ phoneNumber: phone, policy: [{ method: 'sms', fallbackTime: 30 }, { method: 'whatsapp' }] });
      expect(created.data).toMatchObject({ state: 'ONGOING', status: { code: 3001 } });
      await new Promise((r) => setTimeout(r, 60));
      await emulator.idle();
      const got = await client.verifyApi.get(created.data.reference_id);
      expect(got.data.inner_methods?.map((m) => [m.method, m.state])).toEqual([['sms', 'FAILED'], ['whatsapp', 'ONGOING']]);
      const code = emulator.outbox.latest(phone)!;
      expect(code.channel).toBe('whatsapp');
      const wrong = await client.verifyApi.finalize(created.data.reference_id, code.code === '000000' ? '111111' : '000000');
      expect(wrong.data.status.code).toBe(3909);
      const right = await client.verifyApi.finalize(created.data.reference_id, code.code!);
      expect(right.data.status).toEqual({ code: 3900, description: 'Verification successful' });
      expect((await client.verifyApi.get(created.data.reference_id)).data.state).toBe('VERIFIED');
      await emulator.idle();
      expect(payloads().find((p) => p.reference_id === created.data.reference_id)).toMatchObject({ state: 'VERIFIED', verification_policy: [{ method: 'sms', fallback_time: 30 }, { method: 'whatsapp', fallback_time: 60 }] });
    });

    it('Bulk SMS: one outbox message and one verified callback per recipient, with its id as session_id', async () => {
      const { client, emulator } = make();
      const sent = await client.messaging.bulk({ recipients: [{ phoneNumber: '15555550920', id: 'u-1' }, { phoneNumber: '15555550002', id: 'u-2' }, '15555550922'], template: 'Doors open at 9', sessionId: 'launch' });
      expect(sent.data).toMatchObject({ sub_resource: 'bulk_sms', status: { code: 293 } });
      expect(emulator.outbox.list().filter((m) => m.referenceId === sent.data.reference_id)).toHaveLength(3);
      await emulator.idle();
      const mine = payloads().filter((p) => p.reference_id === sent.data.reference_id);
      expect(mine.map((p) => [p.session_id, p.status.code]).sort()).toEqual([['launch', 200], ['u-1', 200], ['u-2', 230]]);
    });

    it('inbound SMS: the emulator sends a signed mo_sms to the callback URL, which verifies', async () => {
      const { emulator } = make();
      const sent = emulator.inbound({ from: '15555550930', to: '15555559999', text: 'STOP' });
      await emulator.idle();
      expect(payloads().find((p) => p.reference_id === sent.referenceId)).toMatchObject({ sub_resource: 'mo_sms', status: { code: 1500 }, user_response: { phone_number: '15555550930', sender_id: '15555559999', mo_message: 'STOP' } });
      expect(received.every((r) => r.ok)).toBe(true);
    });
  });
}

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator(options());
});
afterAll(() => server.close());
operations('HTTP on 127.0.0.1', () => ({
  client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, products: { intelligence: INTELLIGENCE } }),
  emulator: server.emulator,
}));

let inProcess: Emulator;
beforeAll(() => {
  inProcess = createEmulator(options());
});
afterAll(() => inProcess.close());
operations('in-process fetch', () => ({
  client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: inProcess.fetch, products: { intelligence: INTELLIGENCE } }),
  emulator: inProcess,
}));
