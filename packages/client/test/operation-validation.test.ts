// Bad input to the newer operations is refused with a ValidationError naming the field, before
// anything reaches the (real, recording) server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../src/index.js';
import { INTEL, MAIN, PHONE, REF, routedClient, VAPI } from './operation-samples.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([MAIN, INTEL, VAPI]);
});
afterAll(() => server.close());

type Case = [string, (c: Client) => Promise<unknown>, string];
const call = (p: object) => (c: Client) => c.verify.call({ phoneNumber: PHONE, ...p } as never);
const create = (p: object) => (c: Client) => c.verifyApi.create({ phoneNumber: PHONE, ...p } as never);
const lookup = (p: object) => (c: Client) => c.phoneId.lookup(PHONE, p as never);
const bulk = (p: object) => (c: Client) => c.messaging.bulk({ recipients: [PHONE], template: 'x', ...p } as never);

const cases: Case[] = [
  // Voice Verify
  ['a call without a number', (c) => c.verify.call({} as never), 'phoneNumber'],
  ['a call to letters', call({ phoneNumber: 'call me' }), 'phoneNumber'],
  ['a 2-digit own code', call({ verifyCode: '12' }), 'verifyCode'],
  ['an 8-digit own code', call({ verifyCode: '12345678' }), 'verifyCode'],
  ['a spoken text without $$CODE$$', call({ ttsMessage: 'Hello there' }), 'ttsMessage'],
  ['a spoken text over 1600 characters', call({ ttsMessage: `$$CODE$$ ${'a'.repeat(1600)}` }), 'ttsMessage'],
  ['a language with a prompt', call({ language: 'en-US', prompt: { message: 'Press 1', digit: '1' } }), 'language'],
  ['a language with pressx', call({ language: 'en-US', pressx: true }), 'language'],
  ['pressx with a spoken text', call({ pressx: true, ttsMessage: 'Code $$CODE$$' }), 'pressx'],
  ['a two-digit prompt key', call({ prompt: { message: 'Press 12', digit: '12' } }), 'prompt.digit'],
  ['an empty prompt', call({ prompt: { message: ' ', digit: '1' } }), 'prompt.message'],
  ['an unknown call-forward action', call({ callForwardAction: 'drop' }), 'callForwardAction'],
  ['an unknown use case', call({ ucid: 'NOPE' }), 'ucid'],
  ['a host name as IP', call({ originatingIp: 'example.com' }), 'originatingIp'],
  ['redial as a string', call({ redial: 'no' }), 'redial'],
  ['extra as a string', call({ extra: 'a=b' }), 'extra'],
  ['call params that are not an object', (c) => c.verify.call('15555551234' as never), 'params'],
  // Completion
  ['a completion of a non-reference', (c) => c.verify.complete('12345'), 'referenceId'],
  // PhoneID
  ['a standard lookup of a short number', (c) => c.phoneId.standard('1234'), 'phoneNumber'],
  ['a live lookup without ucid', (c) => c.phoneId.live(PHONE, {} as never), 'ucid'],
  ['a deactivation lookup with a bad ucid', (c) => c.phoneId.deactivation(PHONE, { ucid: 'unkn' as never }), 'ucid'],
  ['an unknown add-on', lookup({ addons: { sim_swp: {} } }), 'addons.sim_swp'],
  ['an add-on named after a prototype member', lookup({ addons: { toString: {} } }), 'addons.toString'],
  ['call-forward detection without consent', lookup({ addons: { call_forward_detection: {} } }), 'consent'],
  ['Contact Plus without consent', lookup({ addons: { contact_plus: { billing_postal_code: '94105' } } }), 'consent'],
  ['Contact Plus without a postal code', lookup({ addons: { contact_plus: {} }, consent: { method: 1 } }), 'addons.contact_plus.billing_postal_code'],
  ['contact with inputs', lookup({ addons: { contact: { name: 'x' } } }), 'addons.contact'],
  ['an empty contact match', lookup({ addons: { contact_match: {} } }), 'addons.contact_match'],
  ['a contact match on an unknown field', lookup({ addons: { contact_match: { zip: '94105' } } }), 'addons.contact_match.zip'],
  ['a last_verified that is not RFC 3339', lookup({ addons: { number_deactivation: { last_verified: '31/01/2024' } } }), 'addons.number_deactivation.last_verified'],
  ['a fractional porting window', lookup({ addons: { porting_history: { past_x_days: 1.5 } } }), 'addons.porting_history.past_x_days'],
  ['a consent method 0', lookup({ addons: { contact: {} }, consent: { method: 0 } }), 'consent.method'],
  ['add-ons as an array', lookup({ addons: ['contact'] }), 'addons'],
  // Score and Intelligence
  ['a score without lifecycle event', (c) => c.score.lookup(PHONE, {} as never), 'accountLifecycleEvent'],
  ['a score of a bad number', (c) => c.score.lookup('+1', { accountLifecycleEvent: 'create' }), 'phoneNumber'],
  ['a score with a bad email', (c) => c.score.lookup(PHONE, { accountLifecycleEvent: 'create', emailAddress: 'ada' }), 'emailAddress'],
  ['intelligence without a number', (c) => c.intelligence.phone({ accountLifecycleEvent: 'create' } as never), 'phoneNumber'],
  ['intelligence with an unknown lifecycle event', (c) => c.intelligence.phone({ phoneNumber: PHONE, accountLifecycleEvent: 'login' as never }), 'accountLifecycleEvent'],
  ['intelligence with an empty device id', (c) => c.intelligence.phone({ phoneNumber: PHONE, accountLifecycleEvent: 'create', deviceId: ' ' }), 'deviceId'],
  ['email intelligence without an address', (c) => c.intelligence.email({ accountLifecycleEvent: 'create' } as never), 'emailAddress'],
  ['email intelligence with a bad address', (c) => c.intelligence.email({ emailAddress: 'ada at example', accountLifecycleEvent: 'create' }), 'emailAddress'],
  ['email intelligence without a lifecycle event', (c) => c.intelligence.email({ emailAddress: 'ada@example.com' } as never), 'accountLifecycleEvent'],
  ['email intelligence with a bad number', (c) => c.intelligence.email({ emailAddress: 'ada@example.com', accountLifecycleEvent: 'create', phoneNumber: '12' }), 'phoneNumber'],
  // Verify API
  ['an SMS verification without a number', (c) => c.verifyApi.create({ policy: [{ method: 'sms' }] }), 'phoneNumber'],
  ['a verification without policy and number', (c) => c.verifyApi.create({ email: 'ada@example.com' }), 'phoneNumber'],
  ['an email method without an email', create({ policy: [{ method: 'email' }] }), 'email'],
  ['a bad email', create({ email: 'ada@', policy: [{ method: 'email' }] }), 'email'],
  ['an empty policy', create({ policy: [] }), 'policy'],
  ['four methods', create({ policy: [{ method: 'sms' }, { method: 'whatsapp' }, { method: 'viber' }, { method: 'rcs' }] }), 'policy'],
  ['an unknown method', create({ policy: [{ method: 'fax' }] }), 'policy[0].method'],
  ['push after sms', create({ policy: [{ method: 'sms' }, { method: 'push' }] }), 'policy[1].method'],
  ['silent and push together', create({ policy: [{ method: 'silent' }, { method: 'push' }] }), 'policy[1].method'],
  ['a fallback under 30 s', create({ policy: [{ method: 'sms', fallbackTime: 29 }] }), 'policy[0].fallbackTime'],
  ['a fallback over 300 s', create({ policy: [{ method: 'sms', fallbackTime: 301 }] }), 'policy[0].fallbackTime'],
  ['a fractional fallback', create({ policy: [{ method: 'sms', fallbackTime: 45.5 }] }), 'policy[0].fallbackTime'],
  ['a 2-digit security factor', create({ securityFactor: '12' }), 'securityFactor'],
  ['an 11-digit security factor', create({ securityFactor: '12345678901' }), 'securityFactor'],
  ['a template name with capitals', create({ template: 'Login-Code' }), 'template'],
  ['an external id over 100 characters', create({ externalId: 'x'.repeat(101) }), 'externalId'],
  ['a non-ASCII external id', create({ externalId: 'commande-é' }), 'externalId'],
  ['a body over 10 KB', create({ extra: { note: 'x'.repeat(10 * 1024) } }), 'params'],
  ['a get of a non-reference', (c) => c.verifyApi.get('abc'), 'referenceId'],
  ['a finalize of a non-reference', (c) => c.verifyApi.finalize('abc', '123456'), 'referenceId'],
  ['a finalize with letters', (c) => c.verifyApi.finalize(REF, '12ab56'), 'securityFactor'],
  ['a finalize without a code', (c) => c.verifyApi.finalize(REF, undefined as never), 'securityFactor'],
  // Bulk SMS
  ['no recipients', bulk({ recipients: [] }), 'recipients'],
  ['1001 recipients', bulk({ recipients: Array.from({ length: 1001 }, () => PHONE) }), 'recipients'],
  ['a bad number among the recipients', bulk({ recipients: [PHONE, '555'] }), 'recipients[1]'],
  ['a recipient id with a comma', bulk({ recipients: [{ phoneNumber: PHONE, id: 'a,b' }] }), 'recipients[0].id'],
  ['a recipient id with a colon', bulk({ recipients: [{ phoneNumber: PHONE, id: 'a:b' }] }), 'recipients[0].id'],
  ['an empty template', bulk({ template: '' }), 'template'],
  ['an unknown use case', bulk({ ucid: 'X' }), 'ucid'],
];

describe('validation before the network', () => {
  it.each(cases)('refuses %s', async (_name, run, field) => {
    const before = server.requests.length;
    const error = await Promise.resolve()
      .then(() => run(routedClient(server.url)))
      .then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'ValidationError', code: 'validation_error', field });
    expect((error as Error).message).toMatch(new RegExp(`^${field.replace(/[.[\]$]/g, '\\$&')}: \\S`));
    expect(server.requests.length - before).toBe(0);
  });

  it('refuses as a rejected promise, never a synchronous throw', () => {
    const client = routedClient(server.url);
    expect(() => client.verify.call({} as never).catch(() => undefined)).not.toThrow();
    expect(() => client.verifyApi.finalize('x', 'y').catch(() => undefined)).not.toThrow();
    expect(() => client.messaging.bulk({} as never).catch(() => undefined)).not.toThrow();
    // The operations of the interface document too (they threw synchronously before).
    expect(() => client.messaging.send({} as never).catch(() => undefined)).not.toThrow();
    expect(() => client.messaging.status('nope').catch(() => undefined)).not.toThrow();
    expect(() => client.phoneId.lookup('x', { encoding: 'form', addons: {} } as never).catch(() => undefined)).not.toThrow();
    expect(() => client.verify.sms({} as never).catch(() => undefined)).not.toThrow();
    expect(() => client.verify.check('nope', 'x').catch(() => undefined)).not.toThrow();
    expect(() => client.voice.call({} as never).catch(() => undefined)).not.toThrow();
    expect(() => client.request({ method: 'GET', path: '//evil' }).catch(() => undefined)).not.toThrow();
  });

  it('the server saw nothing at all', () => {
    expect(server.requests).toHaveLength(0);
  });
});
