// One valid call of every operation, keyed by its name in the README's operation table, and the
// accounts the tests route them with (one per host, so the credentials used are visible).
import type { Credentials } from '@x/auth';
import { createClient, type Client, type CreateClientOptions } from '../src/index.js';

export const MAIN: Credentials = { customerId: 'AAAAAAAA-0000-0000-0000-000000000001', apiKey: btoa('main account key') };
export const INTEL: Credentials = { customerId: 'BBBBBBBB-0000-0000-0000-000000000002', apiKey: btoa('intelligence key') };
export const VAPI: Credentials = { customerId: 'CCCCCCCC-0000-0000-0000-000000000003', apiKey: btoa('verify api key') };

export const REF = '0123456789ABCDEF0123456789ABCDEF';
export const PHONE = '15555551234';

/** Path prefixes that stand for the three hosts on one recording server. */
export const PREFIX = { REST: '/rest', Intelligence: '/intel', 'Verify API': '/vapi' } as const;

export function routedClient(serverUrl: string, extra: Partial<CreateClientOptions> = {}): Client {
  return createClient({
    ...MAIN,
    baseUrl: `${serverUrl}${PREFIX.REST}`,
    products: {
      intelligence: { ...INTEL, baseUrl: `${serverUrl}${PREFIX.Intelligence}` },
      verifyApi: { ...VAPI, baseUrl: `${serverUrl}${PREFIX['Verify API']}` },
    },
    ...extra,
  });
}

export const SAMPLES: Record<string, (c: Client) => Promise<unknown>> = {
  'messaging.send': (c) => c.messaging.send({ phoneNumber: PHONE, message: 'Your parcel ships today', messageType: 'ARN' }),
  'messaging.status': (c) => c.messaging.status(REF),
  'messaging.bulk': (c) => c.messaging.bulk({ recipients: [PHONE, { phoneNumber: '15555551235', id: 'user-2' }], template: 'Sale today' }),
  'phoneId.lookup': (c) => c.phoneId.lookup(PHONE, { addons: { contact: {} } }),
  'phoneId.standard': (c) => c.phoneId.standard(PHONE),
  'phoneId.live': (c) => c.phoneId.live(PHONE, { ucid: 'BACS' }),
  'phoneId.deactivation': (c) => c.phoneId.deactivation(PHONE, { ucid: 'UNKN' }),
  'verify.sms': (c) => c.verify.sms({ phoneNumber: PHONE }),
  'verify.call': (c) => c.verify.call({ phoneNumber: PHONE, ttsMessage: 'Your code is $$CODE$$' }),
  'verify.check': (c) => c.verify.check(REF, '12345'),
  'verify.status': (c) => c.verify.status(REF),
  'verify.complete': (c) => c.verify.complete(REF),
  'voice.call': (c) => c.voice.call({ phoneNumber: PHONE, message: 'Hello', messageType: 'ARN' }),
  'voice.status': (c) => c.voice.status(REF),
  'score.lookup': (c) => c.score.lookup(PHONE, { accountLifecycleEvent: 'sign-in' }),
  'intelligence.phone': (c) => c.intelligence.phone({ phoneNumber: PHONE, accountLifecycleEvent: 'create' }),
  'intelligence.email': (c) => c.intelligence.email({ emailAddress: 'ada@example.com', accountLifecycleEvent: 'create' }),
  'verifyApi.create': (c) => c.verifyApi.create({ phoneNumber: PHONE, policy: [{ method: 'sms' }] }),
  'verifyApi.get': (c) => c.verifyApi.get(REF),
  'verifyApi.finalize': (c) => c.verifyApi.finalize(REF, '123456'),
};
