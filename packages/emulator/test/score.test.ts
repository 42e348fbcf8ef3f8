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

describe('POST /intelligence/email (Email Intelligence)', () => {
  const emulator = createEmulator({ products: { intelligence: { customers: [intelligenceAccount] } } });
  afterAll(() => emulator.close());
  const email = (form: Record<string, string>) => local(emulator, 'POST', '/intelligence/email', { form, basic: true, credentials: intelligenceAccount });

  it('answers the address cleansed (lower case, plus-tag removed), its domain facts and a low risk for an ordinary address', async () => {
    const r = await email({ email_address: 'Sam.Lee+news@Example.com', account_lifecycle_event: 'create', external_id: 'signup-9' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      external_id: 'signup-9',
      status: { code: 300, description: 'Transaction successfully completed' },
      email_address_details: {
        original: { email_address: 'Sam.Lee+news@Example.com', is_valid: true },
        cleansed: { email_address: 'sam.lee@example.com', is_valid: true, username: 'sam.lee', domain: 'example.com' },
        cleansing_details: { is_modified: true, tag: 'news', gibberish_probability: 0 },
        domain_details: { general_info: { registered_domain: 'example.com', tld: 'com', tld_type: 'general', is_disposable: false } },
      },
      intelligence_details: { risk: { level: 'low', recommendation: 'allow' } },
    });
    expect(r.body.reference_id).toMatch(/^[0-9A-F]{32}$/);
  });

  it('a disposable domain is high risk and blocked; a gibberish local part raises the probability and the score', async () => {
    const disposable = await email({ email_address: 'sam@mailinator.com', account_lifecycle_event: 'sign-in' });
    expect(disposable.body.email_address_details.domain_details.general_info.is_disposable).toBe(true);
    expect(disposable.body.intelligence_details.risk).toMatchObject({ level: 'high', recommendation: 'block' });
    const plain = await email({ email_address: 'anna@example.de', account_lifecycle_event: 'sign-in' });
    const gibberish = await email({ email_address: 'xkcdqwrtzp@example.de', account_lifecycle_event: 'sign-in' });
    expect(plain.body.email_address_details.domain_details.general_info.tld_type).toBe('country-code');
    expect(gibberish.body.email_address_details.cleansing_details.gibberish_probability).toBeGreaterThan(0.5);
    expect(gibberish.body.intelligence_details.risk.score).toBeGreaterThan(plain.body.intelligence_details.risk.score);
  });

  it.each([
    [{ account_lifecycle_event: 'create' }, 12003],
    [{ email_address: 'sam@example.com' }, 12003],
    [{ email_address: 'no-at-sign', account_lifecycle_event: 'create' }, 11007],
    [{ email_address: 'sam@example.com', account_lifecycle_event: 'login' }, 11003],
    [{ email_address: 'sam@example.com', account_lifecycle_event: 'create', phone_number: '12ab' }, 11000],
    [{ email_address: 'sam@example.com', account_lifecycle_event: 'create', originating_ip: '300.1.1.1' }, 11010],
  ])('400 in status.code for %o: %i', async (form, code) => {
    const r = await email(form as Record<string, string>);
    expect(r.status).toBe(400);
    expect(r.body.status.code).toBe(code);
  });

  it('takes only the Intelligence accounts, and POST only', async () => {
    const rest = await local(emulator, 'POST', '/intelligence/email', { form: { email_address: 'sam@example.com', account_lifecycle_event: 'create' }, basic: true });
    expect(rest.status).toBe(401);
    const get = await local(emulator, 'GET', '/intelligence/email', { credentials: intelligenceAccount });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
