// The advice in the client's messages is written for the person reading it, in full sentences:
// what happened and what to do about it. Pinned word for word for the authentication, network and
// timeout advice, so that a message is not shortened without a decision.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { VERIFY_FAILURE_CODES, VERIFY_FAILURE_TEXTS, type VerifyFailure } from '@x/service/failures';
import { describe, expect, it } from 'vitest';
import { AuthenticationError, NetworkError, TimeoutError, createClient, type ClientOptions } from '../src/index.js';
import { useServers } from './servers.js';

const servers = useServers();
const sms = { phoneNumber: '15555550300', message: 'once', messageType: 'ARN' as const };
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);
const client = (extra: Partial<ClientOptions> = {}) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: servers.recorder.url, retry: false, ...extra });

describe('authentication advice', () => {
  it('a wrong key (both strings to sign equal) says that only the key can differ', async () => {
    const error = (await failure(client({ baseUrl: servers.emulator.url, apiKey: btoa('a different key') }).messaging.send(sms))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain('The service computed the same string to sign as this client, so only the key can differ: check that apiKey is the API key of this customer ID, as issued (base64).');
  });

  it('strings to sign that differ name what may have changed the request between the two', async () => {
    servers.recorder.script({
      status: 401,
      body: { status: { code: 10008, description: 'Invalid Signature', updated_on: '2024-01-01T00:00:00Z' }, signature_string: 'POST\n/elsewhere' },
    });
    const error = (await failure(client().messaging.send(sms))) as AuthenticationError;
    expect(error.message).toContain('Something between this client and the service changed the request (a proxy rewriting the path, a header or the body), or baseUrl has a path the service does not see.');
  });

  it('a signature refused without the service saying what it signed', async () => {
    servers.recorder.script({ status: 401, body: { status: { code: 10008, description: 'Invalid Signature', updated_on: '2024-01-01T00:00:00Z' } } });
    const error = (await failure(client().messaging.send(sms))) as AuthenticationError;
    expect(error.message).toContain('The service does not say what it signed. Check the API key, and that nothing between this client and the service changes the request (a proxy rewriting the path, a header or the body).');
  });

  const REASONS: [VerifyFailure, string][] = [
    ['missing_authorization', 'Send Authorization: let the client sign the request, or check that no proxy strips the header.'],
    ['malformed_authorization', 'Send Authorization as "TSA <customer id>:<signature>" or "Basic <base64>"; check that no proxy rewrites it.'],
    ['unknown_customer', 'Check the customer ID, and that baseUrl is the host of your account (rest-api or rest-ww).'],
    ['invalid_api_key', 'Check the API key: it must be the key of this customer ID, as issued (base64).'],
    ['unsupported_auth_method', 'Sign with algorithm HMAC-SHA256 (the default) or HMAC-SHA1.'],
    ['missing_date', 'Send X-TS-Date (the default) or Date; check that no proxy strips it.'],
    ['invalid_date', 'Send the date as an RFC 1123 date in GMT (what Date.prototype.toUTCString() gives).'],
    ['clock_skew', "The service says the request time is off: check this machine's clock (NTP)."],
    ['invalid_nonce', 'Send a nonce of 4 to 256 characters, or let the client generate one per request.'],
    ['nonce_reused', 'A nonce was sent twice: let the client generate a fresh one for every attempt.'],
  ];
  for (const [reason, advice] of REASONS) {
    it(`${reason}: the advice says what to send and what to check`, async () => {
      // SMS Verify's negative codes name every reason (the positive family shares 10008).
      const code = VERIFY_FAILURE_CODES[reason].negative;
      servers.recorder.script({ status: 401, body: { errors: [{ code, description: VERIFY_FAILURE_TEXTS[reason] }] } });
      const error = (await failure(client().verify.sms({ phoneNumber: '15555550300' }))) as AuthenticationError;
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.reason).toBe(reason);
      expect(error.message).toContain(advice);
    });
  }
});

describe('network advice', () => {
  const ADVICE: [string, string][] = [
    ['ECONNREFUSED', 'Nothing accepts connections there: check baseUrl (and the proxy, when one is used).'],
    ['ENOTFOUND', 'The host name does not resolve: check baseUrl and DNS.'],
    ['EAI_AGAIN', 'The host name could not be resolved now (DNS): check the network, then retry.'],
    ['ENETUNREACH', 'The network is unreachable from this machine: check its connection.'],
    ['EHOSTUNREACH', 'The host is unreachable from this machine: check the network and firewalls.'],
    ['ECONNRESET', 'The connection was reset: a proxy, a firewall or the server closed it.'],
    ['ETIMEDOUT', 'The connection timed out: check the network and firewalls.'],
    ['UND_ERR_CONNECT_TIMEOUT', 'No connection within the connect timeout: check the network and firewalls.'],
    ['ERR_PROXY_TUNNEL', 'The proxy refused the tunnel: check the proxy and its rules.'],
  ];
  for (const [code, advice] of ADVICE) {
    it(`${code}: the message says what happened and what to check`, async () => {
      const fail = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) }));
      const error = (await failure(client({ baseUrl: 'https://rest-ww.telesign.com', fetch: fail }).messaging.send(sms))) as NetworkError;
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.message).toContain(advice);
    });
  }
});

describe('timeout advice', () => {
  it('a send that timed out says it may have reached the service, why it is not retried and how to find out', async () => {
    servers.recorder.script({ status: 200, delayMs: 5_000 });
    const error = (await failure(client({ timeoutMs: 500 }).messaging.send(sms))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain(
      'The request may have reached the service (an SMS or a call may have gone out), so it is not retried: sending it again could send it twice. Look its status up by reference id if you have one, or wait for its status callback (callbackUrl), before sending again.',
    );
  });
});
