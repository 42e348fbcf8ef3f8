// Score (POST /v1/score/{phone}) and Intelligence (POST /intelligence/phone on its own accounts).
import { encodeBase64 } from '@x/auth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer, local } from './helpers.js';

const intelligenceAccount = { customerId: '00000000-0000-4000-8000-0000000000aa', apiKey: encodeBase64(new TextEncoder().encode('intelligence-test-key')) };

describe('POST /v1/score/{phone_number}', () => {
  const emulator = createEmulator();
  afterAll(() => emulator.close());
  const score = (phone: string, form: Record<string, string>) => local(emulator, 'POST', `/v1/score/${phone}`, { form });

  it('answers the PhoneID body with risk from the current scale', async () => {
    const r = await score('15555550500', { account_lifecycle_event: 'create', external_id: 'signup-1' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ external_id: 'signup-1', status: { code: 300 }, phone_type: { description: 'MOBILE' }, blocklisting: { blocked: false }, risk: { level: 'low', recommendation: 'allow' } });
    expect(r.body.risk.score).toBeGreaterThanOrEqual(1);
    expect(r.body.risk.score).toBeLessThanOrEqual(200);
  });

  it.each([
    ['0002', 950, 'high', 'block'],
    ['0003', 700, 'medium-high', 'block'],
    ['0004', 900, 'high', 'block'],
    ['0005', 50, 'low', 'allow'],
    ['0006', 500, 'medium', 'flag'],
    ['0007', 450, 'medium', 'flag'],
    ['0008', 750, 'medium-high', 'block'],
  ])('test number ...%s scores %i (%s, %s)', async (suffix, value, level, recommendation) => {
    expect((await score(`1555555${suffix}`, { account_lifecycle_event: 'sign-in' })).body.risk).toEqual({ score: value, level, recommendation });
  });

  it.each([
    [{}, 12003],
    [{ account_lifecycle_event: 'login' }, 11003],
    [{ account_lifecycle_event: 'create', originating_ip: '300.1.1.1' }, 11010],
    [{ account_lifecycle_event: 'create', email_address: 'no-at-sign' }, 11007],
    [{ account_lifecycle_event: 'create', device_id: 'x'.repeat(129) }, 11006],
    [{ account_lifecycle_event: 'create', account_id: '' }, 11002],
  ])('400 in status.code for %o: %i', async (form, code) => {
    const r = await score('15555550500', form as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.status.code).toBe(code);
    expect(r.body.errors).toBeUndefined();
  });

  it('a bad number in the path is 400 11000; GET is 405 Allow: POST', async () => {
    expect((await score('12ab', { account_lifecycle_event: 'create' })).body.status.code).toBe(11000);
    const r = await local(emulator, 'GET', '/v1/score/15555550500');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
  });
});

describe('POST /intelligence/phone on its own accounts', () => {
  let server: RunningEmulator;
  beforeAll(async () => {
    server = await startEmulator({ products: { intelligence: { customers: [intelligenceAccount] } } });
  });
  afterAll(() => server.close());

  it('the Intelligence account is accepted (form, signed, as the SDKs send it; JSON with Basic on /intelligence, as the docs show)', async () => {
    const form = await call(server.url, 'POST', '/intelligence/phone', { form: { phone_number: '15555550006', account_lifecycle_event: 'transact' }, credentials: intelligenceAccount });
    expect(form.status).toBe(200);
    expect(form.body).toMatchObject({ status: { code: 300, description: 'Transaction successfully completed' }, risk: { score: 500, level: 'medium', recommendation: 'flag' } });
    const { basicAuthorization } = await import('@x/auth');
    const json = await fetch(`${server.url}/intelligence`, {
      method: 'POST',
      headers: { authorization: basicAuthorization(intelligenceAccount), 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: '15555550002', account_lifecycle_event: 'create' }),
    });
    expect(json.status).toBe(200);
    expect((await json.json()).risk.recommendation).toBe('block');
  });

  it('the REST account is refused on Intelligence, and the Intelligence account on the REST routes', async () => {
    const rest = await call(server.url, 'POST', '/intelligence/phone', { form: { phone_number: '15555550006', account_lifecycle_event: 'create' } });
    expect(rest.status).toBe(401);
    expect(rest.body.status.code).toBe(10013);
    const cross = await call(server.url, 'POST', '/v1/score/15555550006', { form: { account_lifecycle_event: 'create' }, credentials: intelligenceAccount });
    expect(cross.status).toBe(401);
    const own = await call(server.url, 'POST', '/v1/score/15555550006', { form: { account_lifecycle_event: 'create' }, credentials: customer });
    expect(own.status).toBe(200);
  });

  it('validates as Score: 12003 without account_lifecycle_event, 12000 without phone_number', async () => {
    const a = await call(server.url, 'POST', '/intelligence/phone', { form: { phone_number: '15555550006' }, credentials: intelligenceAccount });
    expect(a.body.status.code).toBe(12003);
    const b = await call(server.url, 'POST', '/intelligence/phone', { form: { account_lifecycle_event: 'create' }, credentials: intelligenceAccount });
    expect(b.body.status.code).toBe(12000);
  });
});
