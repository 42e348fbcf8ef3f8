// PhoneID variants (standard, live, number deactivation on GET) and the add-ons of the POST forms.
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { local } from './helpers.js';

const now = Date.now();
const emulator = createEmulator({ now: () => now });
afterAll(() => emulator.close());
const get = (path: string, basic = false) => local(emulator, 'GET', path, { basic });
const lookup = (phone: string, json: unknown) => local(emulator, 'POST', `/v1/phoneid/${phone}`, { json });

describe('GET /v1/phoneid/standard/{phone}', () => {
  it('answers the PhoneID body with sub_resource standard, resource_uri null, errors []', async () => {
    const r = await get('/v1/phoneid/standard/447911123456');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sub_resource: 'standard', resource_uri: null, errors: [], status: { code: 300 }, phone_type: { code: '2', description: 'MOBILE' } });
    expect(r.body.numbering.original.country_code).toBe('44');
    // The Node SDK also sends phone_number in the query: ignored.
    expect((await get('/v1/phoneid/standard/447911123456?phone_number=447911123456')).status).toBe(200);
  });

  it('is in the negative family: a bad number is 400 -10001 in errors[]; POST is 405 Allow: GET', async () => {
    const bad = await get('/v1/phoneid/standard/12ab');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: -10001 });
    const post = await local(emulator, 'POST', '/v1/phoneid/standard/15555550100', { json: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('GET /v1/phoneid/live/{phone}?ucid=', () => {
  it('a mobile: ACTIVE, REACHABLE, not roaming; Basic accepted', async () => {
    const r = await get('/v1/phoneid/live/15555550400?ucid=ATCK', true);
    expect(r.body).toMatchObject({ sub_resource: 'live', errors: [], status: { code: 300 }, live: { subscriber_status: 'ACTIVE', device_status: 'REACHABLE', roaming: 'NOT_ROAMING', roaming_country: null, roaming_country_iso2: null } });
  });

  it('test numbers: ...0001 UNREACHABLE, ...0006 ROAMING in Mexico, ...0005 a US landline UNAVAILABLE', async () => {
    expect((await get('/v1/phoneid/live/15555550001?ucid=ATCK')).body.live.device_status).toBe('UNREACHABLE');
    expect((await get('/v1/phoneid/live/15555550006?ucid=ATCK')).body.live).toMatchObject({ roaming: 'ROAMING', roaming_country_iso2: 'MX' });
    expect((await get('/v1/phoneid/live/15555550005?ucid=ATCK')).body.live).toMatchObject({ device_status: 'UNAVAILABLE', roaming: 'UNAVAILABLE' });
  });

  it('no live data (an invalid number, a landline outside the US and UK): 200, 301 with -60001', async () => {
    for (const phone of ['15555550004', '4915555550005']) {
      const r = await get(`/v1/phoneid/live/${phone}?ucid=ATCK`);
      expect(r.status, phone).toBe(200);
      expect(r.body.status, phone).toMatchObject({ code: 301, description: 'Transaction partially completed' });
      expect(r.body.errors, phone).toEqual([{ code: -60001, description: 'PhoneID Live Data Not Found' }]);
    }
  });

  it('ucid is optional (the Node SDK omits it) but must be a use case code', async () => {
    expect((await get('/v1/phoneid/live/15555550400')).status).toBe(200);
    const bad = await get('/v1/phoneid/live/15555550400?ucid=XXXX');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].description).toContain('ucid');
  });
});

describe('GET /v1/phoneid/number_deactivation/{phone}?ucid=', () => {
  it('requires ucid; reports the deactivation of ...0008', async () => {
    expect((await get('/v1/phoneid/number_deactivation/15555550400')).status).toBe(400);
    const none = await get('/v1/phoneid/number_deactivation/15555550400?ucid=UNKN');
    expect(none.body).toMatchObject({ sub_resource: 'number_deactivation', number_deactivation: { number: '15555550400', last_deactivated: null } });
    const recycled = await get('/v1/phoneid/number_deactivation/15555550008?ucid=UNKN');
    expect(recycled.body.number_deactivation.last_deactivated).toBe(new Date(now - 30 * 86_400_000).toISOString().slice(0, 10));
  });
});

describe('POST /v1/phoneid add-ons', () => {
  it('every documented add-on answers its section with status 2800 for a US mobile; the transaction is 300', async () => {
    const r = await lookup('15555550400', {
      addons: { contact: {}, contact_match: { first_name: 'x', last_name: 'Example' }, number_deactivation: {}, subscriber_status: {}, sim_swap: {}, porting_status: {}, porting_history: {}, call_forward_detection: {}, contact_plus: { billing_postal_code: '98101' } },
      consent: { method: 1 },
    });
    expect(r.body.status.code).toBe(300);
    for (const name of ['contact', 'contact_match', 'number_deactivation', 'subscriber_status', 'sim_swap', 'porting_status', 'porting_history', 'call_forward_detection', 'contact_plus']) {
      expect(r.body[name]?.status, name).toEqual({ code: 2800, description: 'Request successfully completed' });
    }
    expect(r.body.contact_match).toMatchObject({ first_name_score: 0, last_name_score: 100, address_score: -1 });
    expect(r.body.subscriber_status).toMatchObject({ account_status: 'active', contract_type: 'postpaid' });
    expect(r.body.sim_swap).toMatchObject({ risk_indicator: 1 });
    expect(r.body.call_forward_detection).toMatchObject({ call_forward_enabled: 'false' });
  });

  it('...0008: SIM swapped today (4), ported, recycled since the last verification; ...0007 forwarded', async () => {
    const r = await lookup('15555550008', { addons: { sim_swap: {}, porting_status: {}, porting_history: { past_x_days: 30 }, number_deactivation: { last_verified: new Date(now - 90 * 86_400_000).toISOString() } } });
    expect(r.body.sim_swap).toMatchObject({ risk_indicator: 4, swap_date: new Date(now).toISOString().slice(0, 10) });
    expect(r.body.porting_status.ported).toBe(true);
    expect(r.body.porting_history).toMatchObject({ number_of_portings: '1' });
    expect(r.body.number_deactivation.recycled_since_last_verification).toBe('recycled');
    const forwarded = await lookup('15555550007', { addons: { call_forward_detection: {} }, consent: { method: 1 } });
    expect(forwarded.body.call_forward_detection).toMatchObject({ call_forward_enabled: 'true', call_forward_type: 'conditional', call_forward_condition: 'busy' });
  });

  it('sections that do not succeed make the transaction 301, each with its code and description', async () => {
    const r = await lookup('4915555550005', { addons: { porting_history: {}, sim_swap: {}, call_forward_detection: {}, nonsense: {}, age_verify: {} } });
    expect(r.body.status).toMatchObject({ code: 301, description: 'Transaction partially completed' });
    expect(r.body.porting_history.status).toEqual({ code: 2803, description: 'Out of coverage' });
    expect(r.body.sim_swap.status).toEqual({ code: 2804, description: 'Number not applicable' });
    expect(r.body.call_forward_detection.status).toEqual({ code: 2807, description: 'Some parameters invalid' });
    expect(r.body.nonsense.status).toEqual({ code: 2801, description: 'Invalid addons parameter' });
    expect(r.body.age_verify.status).toEqual({ code: 2805, description: 'No information for number' });
  });

  it('addons that is not an object is 400 11000; a __proto__ key adds nothing', async () => {
    const bad = await lookup('15555550400', { addons: ['contact'] });
    expect(bad.status).toBe(400);
    expect(bad.body.status.code).toBe(11000);
    const proto = await local(emulator, 'POST', '/v1/phoneid/15555550400', { body: '{"addons":{"__proto__":{"x":1},"contact":{}}}', contentType: 'application/json' });
    expect(proto.status).toBe(200);
    expect(proto.body.contact.status.code).toBe(2800);
    expect(Object.keys(proto.body)).not.toContain('__proto__');
  });
});
