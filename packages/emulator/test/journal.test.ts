// Item 2: the request journal, over real HTTP (GET /_emulator/journal) and in-process.
import { basicAuthorization, signRequest } from '@x/auth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type JournalEntry } from '../src/index.js';
import { Journal } from '../src/state/journal.js';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer, local } from './helpers.js';

const sms = (phone_number: string) => ({ phone_number, message: 'hello', message_type: 'ARN' });
const wrongKey = { customerId: customer.customerId, apiKey: btoa('not the right key') };

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator();
});
afterAll(() => server.close());
afterEach(() => server.emulator.reset());

async function journal(query = ''): Promise<JournalEntry[]> {
  const response = await fetch(`${server.url}/_emulator/journal${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: JournalEntry[] }).entries;
}

describe('every API request is journaled', () => {
  it('a signed request: method, path, scheme, customer, verdict ok, status, service code, reference id, number, timing', async () => {
    const sent = await call(server.url, 'POST', '/v1/messaging?trace=1', { form: sms('15555550140') });
    const [entry] = await journal();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v1/messaging',
      query: 'trace=1',
      scheme: 'digest',
      customerId: customer.customerId,
      verdict: 'ok',
      status: 200,
      serviceCode: 290,
      referenceId: sent.body.reference_id,
      phoneNumbers: ['15555550140'],
    });
    expect(entry!.seq).toBeGreaterThan(0);
    expect(entry!.ms).toBeGreaterThanOrEqual(0);
    expect(typeof entry!.at).toBe('number');
  });

  it('a signature mismatch: the verdict and the emulator\'s string to sign, which is the client\'s when only the key is wrong', async () => {
    const url = `${server.url}/v1/messaging`;
    const body = new URLSearchParams(sms('15555550141')).toString();
    const signed = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, wrongKey);
    const response = await fetch(url, { method: 'POST', headers: signed.headers, body });
    expect(response.status).toBe(401);
    const [entry] = await journal();
    expect(entry).toMatchObject({ verdict: 'signature_mismatch', status: 401, serviceCode: 10008, scheme: 'digest', customerId: customer.customerId });
    expect(entry!.stringToSign).toEqual({ ours: signed.stringToSign });
  });

  it('Basic and no Authorization: scheme and verdict; the negative family\'s code comes from errors[]', async () => {
    const url = `${server.url}/v1/verify/sms`;
    const form = new URLSearchParams({ phone_number: '15555550142' }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    await fetch(url, { method: 'POST', headers: { ...headers, authorization: basicAuthorization(customer) }, body: form });
    await fetch(url, { method: 'POST', headers, body: form });
    const [basic, none] = await journal();
    expect(basic).toMatchObject({ scheme: 'basic', verdict: 'ok', status: 200, serviceCode: 290, customerId: customer.customerId });
    expect(none).toMatchObject({ scheme: 'none', verdict: 'missing_authorization', status: 401, serviceCode: -30004 });
    expect(none!.customerId).toBeUndefined();
  });

  it('a status look-up names the transaction\'s number and reference id', async () => {
    const sent = await call(server.url, 'POST', '/v1/voice', { form: sms('15555550143') });
    await call(server.url, 'GET', `/v1/voice/${sent.body.reference_id}`);
    const entries = await journal('?method=get');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ path: `/v1/voice/${sent.body.reference_id}`, referenceId: sent.body.reference_id, phoneNumbers: ['15555550143'], serviceCode: 103 });
  });

  it('outside every product: verdict none, the positive family\'s 404', async () => {
    await fetch(`${server.url}/v2/anything`);
    const [entry] = await journal();
    expect(entry).toMatchObject({ method: 'GET', path: '/v2/anything', verdict: 'none', scheme: 'none', status: 404, serviceCode: -40004 });
  });

  it('control actions are journaled (verdict control), control reads are not', async () => {
    await fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ type: 'drop', path: '/nowhere' }) });
    await fetch(`${server.url}/_emulator/outbox`);
    await fetch(`${server.url}/_emulator/faults`);
    const entries = await journal();
    expect(entries.map((e) => [e.method, e.path, e.verdict, e.status])).toEqual([['POST', '/_emulator/faults', 'control', 201]]);
  });
});

describe('filters, order and bounds', () => {
  it('method, path prefix, status, status class, verdict and phone number in any format', async () => {
    await call(server.url, 'POST', '/v1/messaging', { form: sms('15555551234') });
    await call(server.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550144' } });
    await call(server.url, 'POST', '/v1/messaging', { form: sms('15555550145'), credentials: wrongKey });
    await call(server.url, 'GET', '/v1/voice');
    const paths = (entries: JournalEntry[]) => entries.map((e) => e.path);
    expect(paths(await journal('?method=POST'))).toEqual(['/v1/messaging', '/v1/verify/sms', '/v1/messaging']);
    expect(paths(await journal('?path=/v1/verify'))).toEqual(['/v1/verify/sms']);
    expect((await journal('?status=401')).map((e) => e.verdict)).toEqual(['signature_mismatch']);
    expect(await journal('?status=2xx')).toHaveLength(3);
    expect((await journal('?verdict=signature_mismatch')).map((e) => e.phoneNumbers)).toEqual([['15555550145']]);
    expect((await journal(`?phone_number=${encodeURIComponent('+1 (555) 555-1234')}`)).map((e) => e.phoneNumbers)).toEqual([['15555551234']]);
  });

  it('newest last; limit keeps the newest; since pages forward from a seq', async () => {
    for (const n of [0, 1, 2, 3, 4]) await call(server.url, 'POST', '/v1/messaging', { form: sms(`1555555015${n}`) });
    const all = await journal();
    expect(all.map((e) => e.phoneNumbers![0])).toEqual(['15555550150', '15555550151', '15555550152', '15555550153', '15555550154']);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => a - b));
    expect((await journal('?limit=2')).map((e) => e.phoneNumbers![0])).toEqual(['15555550153', '15555550154']);
    expect((await journal(`?since=${all[1]!.seq}&limit=2`)).map((e) => e.phoneNumbers![0])).toEqual(['15555550152', '15555550153']);
  });

  it('bad query parameters are a 400 naming them', async () => {
    for (const [query, field] of [['limit=1001', 'limit'], ['limit=0', 'limit'], ['since=-1', 'since'], ['status=99', 'status'], ['status=abc', 'status'], ['method=P0ST', 'method'], ['phone_number=nope', 'phone_number'], ['path=v1', 'path']]) {
      const response = await fetch(`${server.url}/_emulator/journal?${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid_query', field });
    }
  });

  it('the journal is bounded by journalSize; numbering goes on', async () => {
    const emulator = createEmulator({ journalSize: 3 });
    for (const n of [0, 1, 2, 3, 4]) await local(emulator, 'POST', '/v1/messaging', { form: sms(`1555555016${n}`) });
    const entries = emulator.journal.list();
    expect(entries.map((e) => e.phoneNumbers![0])).toEqual(['15555550162', '15555550163', '15555550164']);
    expect(entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    emulator.close();
  });

  it('journalSize is checked', () => {
    expect(() => createEmulator({ journalSize: -1 })).toThrow(/journalSize/);
    expect(() => createEmulator({ journalSize: 1.5 })).toThrow(/journalSize/);
  });

  it('an account whose key does not decode is refused at creation, naming it, never showing the key', () => {
    const key = 'not*base64';
    let error: unknown;
    try {
      createEmulator({ customers: [customer, { customerId: 'acme', apiKey: key }] });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ name: 'EmulatorError', code: 'invalid_option' });
    expect((error as Error).message).toMatch(/^customers\[1\] \("acme"\): apiKey is not valid base64/);
    expect((error as Error).message).not.toContain(key);
  });
});

describe('in-process', () => {
  it('emulator.journal.list(filter) and reset', async () => {
    const emulator = createEmulator();
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550170') });
    await local(emulator, 'POST', '/v1/messaging', { form: sms('15555550171'), basic: true });
    expect(emulator.journal.list({ phoneNumber: '+1 555 555 0171' }).map((e) => e.scheme)).toEqual(['basic']);
    expect(emulator.journal.list({ verdict: 'ok', limit: 1 }).map((e) => e.phoneNumbers)).toEqual([['15555550171']]);
    emulator.reset();
    expect(emulator.journal.list()).toEqual([]);
    emulator.close();
  });
});

describe('the journal itself', () => {
  const full = (n: number): JournalEntry => ({
    seq: 0, at: 1_780_000_000_000 + n, method: 'POST', path: `/v1/path/${n}`, query: `q=${n}`, scheme: 'digest', customerId: `C${n}`,
    verdict: 'signature_mismatch', stringToSign: { ours: `ours ${n}`, theirs: `theirs ${n}` }, status: 401, serviceCode: -30000 - n,
    referenceId: `R${n}`, phoneNumbers: n % 2 ? [`1555555${n}`] : [`1555555${n}`, `1666666${n}`], fault: 'latency', ms: n / 10,
  });
  const bare = (n: number): JournalEntry => ({ seq: 0, at: n, method: 'GET', path: '/', scheme: 'none', verdict: 'none', status: 404, ms: 0 });

  it('keeps every field of the newest entries as given, in the order the middleware writes them, as the oldest are dropped', () => {
    const journal = new Journal(3);
    for (let n = 1; n <= 7; n++) journal.add(n === 6 ? bare(n) : full(n));
    const expected = [full(5), bare(6), full(7)].map((e, i) => ({ ...e, seq: 5 + i }));
    expect(journal.entries()).toStrictEqual(expected);
    const order = ['seq', 'at', 'method', 'path', 'scheme', 'verdict', 'status', 'ms', 'query', 'customerId', 'stringToSign', 'serviceCode', 'referenceId', 'phoneNumbers', 'fault'];
    expect(Object.keys(journal.entries()[2]!)).toEqual(order);
    expect(journal.list({ since: 5 }).map((e) => e.seq)).toEqual([6, 7]);
    expect(journal.list({ limit: 1 })).toStrictEqual([expected[2]]);
    // A field that an entry lacks is absent, not undefined.
    expect(Object.keys(journal.entries()[1]!)).toEqual(['seq', 'at', 'method', 'path', 'scheme', 'verdict', 'status', 'ms']);
  });

  it('gives copies: changing what it returned, or what was added, does not change it', () => {
    const journal = new Journal(2);
    const added = full(1);
    journal.add(added);
    added.phoneNumbers!.push('x');
    added.stringToSign!.ours = 'changed';
    const [read] = journal.list();
    read!.phoneNumbers!.push('y');
    read!.stringToSign!.ours = 'changed too';
    expect(journal.list()).toStrictEqual([{ ...full(1), seq: 1 }]);
  });

  it('restores saved entries (the newest size of them) and numbers on after the last; clear forgets them', () => {
    const saved = [1, 2, 3].map((n) => ({ ...full(n), seq: 10 + n }));
    const journal = new Journal(2);
    journal.restore(saved);
    expect(journal.entries()).toStrictEqual(saved.slice(1));
    expect(journal.add(bare(4)).seq).toBe(14);
    journal.clear();
    expect(journal.entries()).toEqual([]);
    expect(journal.add(bare(5)).seq).toBe(15);
    expect(journal.length).toBe(1);
  });

  it('with size 0 numbers entries and keeps none', () => {
    const journal = new Journal(0);
    expect(journal.add(bare(1)).seq).toBe(1);
    expect(journal.entries()).toEqual([]);
  });
});
