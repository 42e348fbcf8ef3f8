// Secrets in errors: verification codes and URL credentials appear in no field of an error the
// client throws (enumerable or not), however it is printed: console.error / util.inspect,
// JSON.stringify, a pino-style serializer, the cause chain.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../../testing/support.js';
import { ApiError, AuthenticationError, ConfigurationError, NetworkError, RedirectError, createClient, fromEnv, type ClientOptions } from '../src/index.js';
import { printed } from './printed.js';
import { useServers } from './servers.js';

const servers = useServers();
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);
const wrongKey = btoa('a different key!');
const at = (baseUrl: string, extra: Partial<ClientOptions> = {}) =>
  createClient({ ...DEFAULT_CUSTOMER, baseUrl, retry: false, products: { verifyApi: { baseUrl } }, ...extra });
const REF = '0123456789ABCDEF0123456789ABCDEF';

const customer = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a key of sixteen') };

// Base URLs with credentials that the URL parser refuses (Node's ERR_INVALID_URL keeps them in `input`).
const BROKEN = ['https://admin:PASSWORD@[::1', 'https://admin:PASSWORD@[::1]:99999/', 'https://admin:PASSWORD@exa mple.com', 'http://admin:PASSWORD@host:port', 'https://admin:PASSWORD@[zz]', 'https://admin:PASSWORD@%zz'];

describe('a base URL with credentials that does not parse', () => {
  it('https://admin:pw@[::1: a ConfigurationError whose message and cause show neither the URL nor the password', () => {
    const error = thrown(() => createClient({ ...customer, baseUrl: 'https://admin:pw-s3cret@[::1' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/baseUrl/);
    expect(printed(error)).not.toContain('s3cret');
    expect(printed(error)).not.toContain('admin');
  });

  it('property: any password, in any unparseable URL, through createClient, products and X_BASE_URL', () => {
    const password = fc.stringMatching(/^[A-Za-z0-9_~-]{6,24}$/).map((p) => `Pw${p}`);
    fc.assert(
      fc.property(password, fc.constantFrom(...BROKEN), fc.constantFrom('baseUrl', 'products', 'env'), (secret, shape, where) => {
        const url = shape.replace('PASSWORD', secret);
        const error = thrown(() => {
          if (where === 'env') return fromEnv({ X_BASE_URL: url });
          if (where === 'products') return createClient({ ...customer, products: { verifyApi: { baseUrl: url } } });
          return createClient({ ...customer, baseUrl: url });
        });
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(printed(error)).not.toContain(secret);
      }),
      { numRuns: 200 },
    );
  });

  it('a base URL with credentials that parses is refused without showing them either', () => {
    const error = thrown(() => createClient({ ...customer, baseUrl: 'https://admin:pw-s3cret@example.com/' }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(printed(error)).not.toContain('s3cret');
  });
});

describe('verification codes in errors', () => {
  it('verify.sms({ verifyCode }) refused (401): the code is masked in stringToSign, serverStringToSign and everywhere else; both still match', async () => {
    const code = '7305918';
    const error = (await failure(at(servers.emulator.url, { apiKey: wrongKey }).verify.sms({ phoneNumber: '15555550300', verifyCode: code, template: 'Your code: $$CODE$$' }))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(printed(error)).not.toContain(code);
    expect(error.stringToSign).toMatch(/verify_code=\[redacted\]/);
    expect(error.serverStringToSign).toMatch(/verify_code=\[redacted\]/);
    // Still useful: the two strings compare, and the key is named as the culprit.
    expect(error.stringToSign).toBe(error.serverStringToSign);
    expect(error.message).toMatch(/same string to sign/);
  });

  it('property: any code, as any form field position, refused with a 401 that echoes what was signed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^9[0-9]{6}$/), fc.boolean(), async (code, template) => {
        const error = (await failure(
          at(servers.emulator.url, { apiKey: wrongKey }).verify.sms({ phoneNumber: '15555550300', verifyCode: code, ...(template ? { template: 'Code $$CODE$$ here' } : {}) }),
        )) as AuthenticationError;
        expect(error).toBeInstanceOf(AuthenticationError);
        expect(printed(error)).not.toContain(code);
      }),
      { numRuns: 25 },
    );
  });

  it('verifyApi.create({ securityFactor }) refused: the JSON body and the echoed string to sign are masked', async () => {
    const code = '93051877';
    const signed = JSON.stringify({ phone_number: '15555550300', security_factor: code });
    servers.recorder.script({ status: 401, body: { status: { code: 10008, description: 'Invalid Signature' }, signature_string: `POST\napplication/json\n\n${signed}\n/verification`, echo: { security_factor: code } } });
    const error = (await failure(at(servers.recorder.url).verifyApi.create({ phoneNumber: '15555550300', securityFactor: code }))) as AuthenticationError;
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(printed(error)).not.toContain(code);
    expect(error.serverStringToSign).toContain('"security_factor":"[redacted]"');
    expect(error.stringToSign).toContain('"security_factor":"[redacted]"');
  });

  it('verifyApi.finalize refused (400) with a body that echoes the code: the ApiError body is masked', async () => {
    const code = '93051877';
    servers.recorder.script({ status: 400, body: { status: { code: 11000, description: 'Invalid security_factor' }, security_factor: code, request: `action=finalize&security_factor=${code}` } });
    const error = (await failure(at(servers.recorder.url).verifyApi.finalize(REF, code))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.serviceCode).toBe(11000);
    expect(printed(error)).not.toContain(code);
  });

  it('verify.check(ref, code) answered 4xx with code_entered: masked in the body', async () => {
    const code = '9305187';
    servers.recorder.script({ status: 400, body: { status: { code: 11011, description: 'Invalid reference_id' }, verify: { code_state: 'INVALID', code_entered: code } } });
    const error = (await failure(at(servers.recorder.url).verify.check(REF, code))) as ApiError;
    expect(error.serviceCode).toBe(11011);
    expect(printed(error)).not.toContain(code);
  });

  it('a redirect whose Location keeps the query: the code and URL credentials are masked in location and message', async () => {
    const code = '9305187';
    servers.recorder.script({ status: 302, headers: { location: `https://user:pw-s3cret@elsewhere.example/v1/verify/${REF}?verify_code=${code}` } });
    const error = (await failure(at(servers.recorder.url).verify.check(REF, code))) as RedirectError;
    expect(error).toBeInstanceOf(RedirectError);
    expect(error.location).toContain('elsewhere.example');
    expect(printed(error)).not.toContain(code);
    expect(printed(error)).not.toContain('s3cret');
  });

  it("a fetch that fails naming the URL: the NetworkError's message masks the code", async () => {
    const code = '9305187';
    const fetch = (url: string) => Promise.reject(new TypeError(`request to ${url} failed, reason: socket closed`));
    const error = (await failure(at(servers.recorder.url, { fetch }).verify.check(REF, code))) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toContain('verify_code=[redacted]');
    expect(printed(error)).not.toContain(code);
    // The cause is kept, masked: its type, message and code still say what happened.
    expect(error.cause).toBeInstanceOf(TypeError);
    expect((error.cause as Error).message).toMatch(/^request to .*verify_code=\[redacted\] failed, reason: socket closed$/);
  });

  it('a cause chain that names a proxy URL with its password: masked at every link, codes kept', async () => {
    const low = Object.assign(new Error('connect ECONNREFUSED via http://user:pw-s3cret@127.0.0.1:3128'), { code: 'ECONNREFUSED' });
    const fetch = () => Promise.reject(new TypeError('fetch failed', { cause: low }));
    const error = (await failure(at(servers.recorder.url, { fetch }).messaging.status(REF, { retry: false }))) as NetworkError;
    expect(error.sent).toBe(false);
    expect(printed(error)).not.toContain('s3cret');
    expect(((error.cause as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('property: AuthenticationError built from any strings to sign holding codes never shows them', () => {
    const field = fc.constantFrom('verify_code', 'security_factor');
    const other = fc.stringMatching(/^[a-z_]{1,12}=[A-Za-z0-9%+]{0,20}$/);
    fc.assert(
      fc.property(fc.array(other, { maxLength: 4 }), field, fc.stringMatching(/^9[0-9]{5,9}$/), fc.nat(4), fc.boolean(), (others, name, code, index, json) => {
        const pairs = [...others];
        pairs.splice(Math.min(index, pairs.length), 0, `${name}=${code}`);
        const body = json ? JSON.stringify({ ...Object.fromEntries(pairs.map((p) => p.split('='))), [name]: code }) : pairs.join('&');
        const sts = `POST\napplication/x-www-form-urlencoded\n\nx-ts-auth-method:HMAC-SHA256\n${body}\n/v1/verify/sms`;
        const error = new AuthenticationError(
          { status: 401, headers: new Headers(), body: { status: { code: 10008 }, signature_string: sts }, method: 'POST', path: '/v1/verify/sms' },
          sts,
          Date.now(),
        );
        expect(printed(error)).not.toContain(code);
        expect(error.stringToSign).toBe(error.serverStringToSign);
      }),
      { numRuns: 300 },
    );
  });
});
