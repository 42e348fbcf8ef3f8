// intelligence.email on the wire, byte for byte as the official Node client sends it (service.md §7.3:
// its 5.2 route table posts a form with Basic to /intelligence/email). The registry's telesignsdk
// here (3.0.4) has no email method, so its generic RestClient.execute sends that route the 5.2 way (form,
// Basic) to a recording server on 127.0.0.1, and so does this client: method, path, content type,
// Authorization and body bytes must be the same.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/index.js';
import { INTEL } from './operation-samples.js';
import { startRecordingServer, type Recorded, type RecordingServer } from './recording-server.js';

const require = createRequire(import.meta.url);
const RestClient = require('telesignsdk/src/RestClient.js');
const { FetchRequestWrapper } = require('telesignsdk/src/RequestWrapper.js');

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([INTEL]);
});
afterAll(() => server.close());

/** What the official client sends for `fields`, in that order (its form is `new URLSearchParams(fields)`). */
async function official(fields: Record<string, string>): Promise<Recorded> {
  server.reset();
  const client = new RestClient(new FetchRequestWrapper(fetch), INTEL.customerId, INTEL.apiKey, server.url);
  await new Promise<void>((resolve, reject) => client.execute((error: unknown) => (error ? reject(error) : resolve()), 'POST', '/intelligence/email', fields, 'Basic'));
  return server.requests[0]!;
}

async function ours(params: Parameters<ReturnType<typeof createClient>['intelligence']['email']>[0]): Promise<Recorded> {
  server.reset();
  await createClient({ ...INTEL, baseUrl: server.url, retry: false }).intelligence.email(params);
  return server.requests[0]!;
}

const wire = (r: Recorded) => ({ method: r.method, path: r.path, query: r.query, contentType: r.contentType, authorization: r.headers.authorization, body: r.body, auth: r.auth });

describe('intelligence.email against the official client, on a recording server', () => {
  it('the required fields: same method, path, content type, Basic header and body bytes', async () => {
    const theirs = await official({ account_lifecycle_event: 'sign-in', email_address: 'ada.lovelace+news@example.com' });
    const mine = await ours({ emailAddress: 'ada.lovelace+news@example.com', accountLifecycleEvent: 'sign-in' });
    expect(wire(mine)).toEqual(wire(theirs));
    expect(mine.auth).toMatchObject({ ok: true, scheme: 'basic', customerId: INTEL.customerId });
    expect(mine.body).toBe('account_lifecycle_event=sign-in&email_address=ada.lovelace%2Bnews%40example.com');
  });

  it('with every optional id, in the order this client sends them', async () => {
    const theirs = await official({
      account_lifecycle_event: 'create',
      external_id: 'signup 7/a',
      originating_ip: '203.0.113.7',
      device_id: 'device~1',
      account_id: 'acct*9',
      email_address: 'o\u2019brien@example.com',
      phone_number: '15555550100',
    });
    const mine = await ours({ emailAddress: 'o\u2019brien@example.com', accountLifecycleEvent: 'create', externalId: 'signup 7/a', originatingIp: '203.0.113.7', deviceId: 'device~1', accountId: 'acct*9', phoneNumber: '+1 555 555 0100' });
    expect(wire(mine)).toEqual(wire(theirs));
  });
});
