import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enableSha1, signRequest, verifyRequest, type Credentials } from '../src/index.js';
import { encodeBase64 } from '../src/protocol.js';

enableSha1(); // the requests are signed with both algorithms

const T0 = Date.UTC(2024, 4, 6, 12, 0, 0);
const token = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const arbitraryKey = fc.uint8Array({ minLength: 1, maxLength: 64 }).map(encodeBase64);
const arbitraryRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: fc.array(token, { minLength: 1, maxLength: 4 }).map((segments) => '/' + segments.join('/')),
  query: fc.option(token, { nil: undefined }),
  contentType: fc.constantFrom('application/x-www-form-urlencoded', 'application/json'),
  body: fc.string({ unit: 'binary', maxLength: 200 }),
  headers: fc.dictionary(token.map((t) => `x-ts-${t.toLowerCase()}`), fc.string({ unit: 'grapheme-ascii', maxLength: 30 }), { maxKeys: 3 })
    .filter((h) => !Object.keys(h).some((k) => ['x-ts-auth-method', 'x-ts-date', 'x-ts-nonce', 'x-ts-authorization'].includes(k))),
  algorithm: fc.constantFrom('HMAC-SHA256' as const, 'HMAC-SHA1' as const),
  dateHeader: fc.constantFrom('x-ts-date' as const, 'date' as const),
});

type Arb = typeof arbitraryRequest extends fc.Arbitrary<infer T> ? T : never;

function build(r: Arb, credentials: Credentials) {
  const url = r.path + (r.query ? `?q=${r.query}` : '');
  const body = r.method === 'GET' ? undefined : r.body;
  const { headers } = signRequest(
    { method: r.method, url, contentType: r.contentType, body, headers: r.headers },
    credentials,
    { algorithm: r.algorithm, dateHeader: r.dateHeader, date: new Date(T0) },
  );
  return { method: r.method, url, headers: { ...headers } as Record<string, string>, body };
}

const verify = (request: ReturnType<typeof build>, credentials: Credentials) =>
  verifyRequest(request, { credentials: (id) => (id === credentials.customerId ? credentials : undefined), now: () => T0 });

describe('sign -> verify properties', () => {
  it('accepts every signed request', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryRequest, arbitraryKey, async (r, apiKey) => {
        const credentials = { customerId: 'cust-1', apiKey };
        expect(await verify(build(r, credentials), credentials)).toMatchObject({ ok: true });
      }),
      { numRuns: 200 },
    );
  });

  it('rejects any single change of method, path, body, signed header, date or key', async () => {
    const mutation = fc.constantFrom('method', 'path', 'body', 'header', 'date', 'key', 'auth-method');
    await fc.assert(
      fc.asyncProperty(arbitraryRequest, arbitraryKey, mutation, async (r, apiKey, change) => {
        const credentials = { customerId: 'cust-1', apiKey };
        const request = build(r, credentials);
        let verifyWith = credentials;
        switch (change) {
          case 'method':
            request.method = request.method === 'POST' ? 'PUT' : 'POST';
            request.body ??= '';
            break;
          case 'path':
            request.url = request.url.replace(/^\//, '/x');
            break;
          case 'body':
            if (request.method === 'GET') request.url = request.url.replace(/^\//, '/y');
            else request.body = (request.body ?? '') + '!';
            break;
          case 'header': {
            const name = Object.keys(request.headers).find((k) => k.startsWith('x-ts-') && !['x-ts-auth-method', 'x-ts-date'].includes(k))!;
            request.headers[name] = request.headers[name] + 'z';
            break;
          }
          case 'date': {
            const name = request.headers['x-ts-date'] ? 'x-ts-date' : 'date';
            request.headers[name] = new Date(T0 + 1000).toUTCString();
            break;
          }
          case 'key':
            verifyWith = { ...credentials, apiKey: encodeBase64(new Uint8Array([1, 2, 3, ...new TextEncoder().encode(apiKey)])) };
            break;
          case 'auth-method':
            request.headers['x-ts-auth-method'] = r.algorithm === 'HMAC-SHA1' ? 'HMAC-SHA256' : 'HMAC-SHA1';
            break;
        }
        const result = await verify(request, verifyWith);
        expect(result).toMatchObject({ ok: false, reason: 'signature_mismatch' });
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary header values', async () => {
    const names = fc.constantFrom('authorization', 'x-ts-date', 'date', 'x-ts-nonce', 'x-ts-auth-method', 'content-type', 'x-ts-other');
    const value = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('TSA a:b', 'Basic Og==', 'TSA cust-1:AAAA', 'Basic ' + btoa('cust-1:x')));
    const headers = fc.dictionary(names, fc.oneof(value, fc.array(value, { maxLength: 3 })));
    const credentials = { customerId: 'cust-1', apiKey: 'AAAA' };
    await fc.assert(
      fc.asyncProperty(headers, fc.string(), fc.string(), fc.option(fc.string(), { nil: undefined }), async (h, method, url, body) => {
        const result = await verifyRequest({ method, url, headers: h, body }, { credentials: () => credentials, now: () => T0 });
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 500 },
    );
  });
});

describe('canonical x-ts lines', () => {
  /** The document's rule, written plainly: lower-cased, trimmed names; x-ts-* only; sorted by name (stable); values unfolded and trimmed. */
  const reference = (headers: Record<string, string>) =>
    Object.entries(headers)
      .map(([name, value]) => [name.trim().toLowerCase(), value.replace(/\r?\n[ \t]+/g, ' ').trim()] as const)
      .filter(([name]) => name.startsWith('x-ts-'))
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([name, value]) => `${name}:${value}\n`)
      .join('');
  // Names that collide once lower-cased or trimmed, x-ts and other names, folded values.
  const name = fc.tuple(fc.constantFrom('', ' '), fc.constantFrom('x-ts-', 'X-TS-', 'x-Ts-', 'date', 'content-type', 'x-t'), fc.constantFrom('a', 'B', 'nonce', 'Nonce', 'date', 'b-c', ''), fc.constantFrom('', ' ')).map((p) => p.join(''));
  const value = fc.array(fc.constantFrom('v', ' ', '\r\n ', '\n\t', 'x:y', '1'), { maxLength: 6 }).map((p) => p.join(''));

  it('canonicalTsHeaders gives the document\'s lines for any record (colliding names keep their order)', async () => {
    const { canonicalTsHeaders } = await import('../src/protocol.js');
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 8 }), (headers) => {
        expect(canonicalTsHeaders(headers)).toBe(reference(headers));
      }),
      { numRuns: 500 },
    );
  });
});
