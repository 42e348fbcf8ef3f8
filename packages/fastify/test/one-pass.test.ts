// At the Fastify adapter: opted-in JSON routes are verified in one
// pass inside the plugin's JSON parser (the route sees the request's own stream, not a replay),
// other routes parse JSON exactly as Fastify does, the plugin's `mac` is the one HMAC option and
// its key caches are its own (prepared once, bounded for a credentials lookup).
import { prepareMac, signRequest } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import type { CallbackPayload } from '@x/webhooks';
import { createSignedCallback } from '@x/webhooks/testing';
import Fastify, { type FastifyInstance, type preParsingHookHandler } from 'fastify';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xVerification } from '../src/index.js';
import { countingMac, customer, expectKeyPreparedOncePerCustomer } from '../../../testing/key-cache.js';

const { mac, prepared } = countingMac(prepareMac);
const payload: CallbackPayload = { reference_id: 'D'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };
const streams: boolean[] = [];

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = Fastify({ bodyLimit: 1024 });
  await app.register(xVerification, {
    callbacks: { ...DEFAULT_CUSTOMER, mac },
    signedRequests: { credentials: (id) => customer(Number(id.slice('customer-'.length))), mac },
  });
  // A route hook of the user's, after the plugin's: it sees the request's own stream when the body is read in one pass.
  const preParsing: preParsingHookHandler = (request, _reply, stream, done) => {
    streams.push(stream === (request.raw as unknown));
    done(null, stream);
  };
  app.post('/cb', { config: { xCallback: true }, preParsing }, async (request) => ({ id: request.callback?.reference_id, body: request.body }));
  app.post('/signed', { config: { xSignedRequest: true } }, async (request) => ({ customer: request.customerId, body: request.body }));
  app.post('/plain', { bodyLimit: 64 }, async (request) => ({ body: request.body }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('@x/fastify: one pass on opted-in JSON routes', () => {
  it('the route sees the request stream itself (no replayed copy), the key is prepared once with the given mac, and request.body is the verified payload', async () => {
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    prepared.length = 0;
    streams.length = 0;
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/cb`, { method: 'POST', body: signed.body, headers: signed.headers });
      expect(await r.json()).toEqual({ id: payload.reference_id, body: payload });
    }
    expect(streams).toEqual([true, true, true]);
    expect(prepared).toEqual([DEFAULT_CUSTOMER.apiKey]);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])('a callback sent as %s is verified in the one pass (the route sees its own stream)', async (type) => {
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    streams.length = 0;
    const r = await fetch(`${base}/cb`, { method: 'POST', body: signed.body, headers: { ...signed.headers, 'content-type': type } });
    expect(await r.json()).toEqual({ id: payload.reference_id, body: payload });
    expect(streams).toEqual([true]);
    const forged = await fetch(`${base}/cb`, { method: 'POST', body: signed.body.replace('Delivered', 'Dropped  '), headers: { ...signed.headers, 'content-type': type } });
    expect(forged.status).toBe(401);
  });

  it('a callback whose body arrives in several pieces (chunked, over a raw socket) is verified on the whole bytes', async () => {
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const answer = await sendInPieces(Buffer.from(signed.body), signed.headers, [7, 100]);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(chunkedJson(answer)).toEqual({ id: payload.reference_id, body: payload });
  });

  it('a body of multi-byte characters, cut inside them, is verified over its exact bytes (the parser decodes text; the signature is over bytes)', async () => {
    const text = { ...payload, status: { ...payload.status, description: 'Délivré au téléphone 📱 — ✓' } };
    const signed = createSignedCallback(text, DEFAULT_CUSTOMER);
    const bytes = Buffer.from(signed.body);
    const inside = [bytes.indexOf(Buffer.from('é')) + 1, bytes.indexOf(Buffer.from('📱')) + 2, bytes.indexOf(Buffer.from('✓')) + 1];
    const answer = await sendInPieces(bytes, signed.headers, inside);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(chunkedJson(answer)).toEqual({ id: payload.reference_id, body: text });
    // The same bytes with one character changed are refused.
    const forged = await sendInPieces(Buffer.from(signed.body.replace('📱', '📞')), signed.headers, inside);
    expect(forged.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('signed requests: each customer key is prepared once, at most 64 held for a lookup of many', async () => {
    await expectKeyPreparedOncePerCustomer(`${base}/signed`, signRequest, prepared, (n) => ({ customer: `customer-${n}`, body: { n } }));
  });

  it('a signed JSON request that fails verification is answered 401 before its body is parsed', async () => {
    const request = { method: 'POST', url: `${base}/signed`, contentType: 'application/json', body: '{"n":1}' };
    const r = await fetch(`${base}/signed`, { method: 'POST', body: '{not json', headers: signRequest(request, customer(1)).headers });
    expect(r.status).toBe(401);
    expect(await r.json()).toMatchObject({ error: 'signature_mismatch' });
  });
});

describe('@x/fastify: routes that did not opt in parse JSON exactly as Fastify does', () => {
  const plain = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => app.inject({ method: 'POST', url: '/plain', payload: body, headers });

  it('parses, and answers Fastify\'s own errors: empty body, invalid JSON, __proto__ poisoning, over the route bodyLimit', async () => {
    expect((await plain('{"a":[1,2]}')).json()).toEqual({ body: { a: [1, 2] } });
    const reference = Fastify({ bodyLimit: 1024 });
    reference.post('/plain', { bodyLimit: 64 }, async (request) => ({ body: request.body }));
    for (const body of ['', '{"a":', '{"__proto__":{"x":1}}', JSON.stringify({ pad: 'x'.repeat(100) })]) {
      const ours = await plain(body);
      const theirs = await reference.inject({ method: 'POST', url: '/plain', payload: body, headers: { 'content-type': 'application/json' } });
      expect({ status: ours.statusCode, body: ours.json() }).toEqual({ status: theirs.statusCode, body: theirs.json() });
    }
    await reference.close();
  });
});

describe('@x/fastify: misconfigurations that would leave a route unverified are typed errors', () => {
  it('a route declared before the plugin, with callbacks configured, is refused at its first request (never run unverified)', async () => {
    const early = Fastify();
    let runs = 0;
    early.post('/early', { config: { xCallback: true } }, async () => ++runs);
    await early.register(xVerification, { callbacks: DEFAULT_CUSTOMER });
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const answer = await early.inject({ method: 'POST', url: '/early', payload: signed.body, headers: signed.headers });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toMatchObject({ code: 'not_verified' });
    expect(runs).toBe(0);
    await early.close();
  });

  it('a route declared right after a register() that was not awaited is refused with the typed error, never run unverified', async () => {
    const eager = Fastify();
    let runs = 0;
    void eager.register(xVerification, { callbacks: DEFAULT_CUSTOMER });
    eager.post('/cb', { config: { xCallback: true } }, async () => ++runs);
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const answer = await eager.inject({ method: 'POST', url: '/cb', payload: signed.body, headers: signed.headers });
    expect(answer.statusCode).toBe(500);
    expect(answer.json().message).toMatch(/await app\.register/);
    expect(runs).toBe(0);
    await eager.close();
  });
});

describe('@x/fastify: the application keeps its own JSON parser', () => {
  it('an app with its own application/json parser registers the plugin, keeps its parser on other routes, and opted-in routes are verified over the bytes it read', async () => {
    const own = Fastify();
    const parsedByApp: string[] = [];
    // The app's parser: JSON, marked as its own.
    own.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      parsedByApp.push(request.url);
      done(null, { ...(JSON.parse(body as string) as object), mine: true });
    });
    await own.register(xVerification, { callbacks: DEFAULT_CUSTOMER, signedRequests: { credentials: (id) => (id === DEFAULT_CUSTOMER.customerId ? DEFAULT_CUSTOMER : undefined) } });
    own.post('/other', async (request) => ({ body: request.body }));
    own.post('/cb', { config: { xCallback: true } }, async (request) => ({ callback: request.callback, same: request.callback === request.body, raw: new TextDecoder().decode(request.rawBody) }));
    own.post('/signed', { config: { xSignedRequest: true } }, async (request) => ({ customer: request.customerId, body: request.body }));
    const other = await own.inject({ method: 'POST', url: '/other', payload: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(other.json()).toEqual({ body: { a: 1, mine: true } });
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const cb = await own.inject({ method: 'POST', url: '/cb', payload: signed.body, headers: signed.headers });
    // The verified payload is the body as the route's parser made it from the verified bytes (parsed once).
    expect(cb.json()).toEqual({ callback: { ...payload, mine: true }, same: true, raw: signed.body });
    const forged = await own.inject({ method: 'POST', url: '/cb', payload: signed.body.replace('Delivered', 'Dropped  '), headers: signed.headers });
    expect(forged.statusCode).toBe(401);
    const body = '{"n":1}';
    const request = { method: 'POST', url: '/signed', contentType: 'application/json', body };
    const verified = await own.inject({ method: 'POST', url: '/signed', payload: body, headers: signRequest(request, DEFAULT_CUSTOMER).headers });
    expect(verified.json()).toEqual({ customer: DEFAULT_CUSTOMER.customerId, body: { n: 1, mine: true } });
    expect(parsedByApp).toEqual(['/other', '/cb', '/cb', '/signed']);
    await own.close();
  });

  it.each([
    ['keeps the text', (body: string) => body],
    ['keeps the bytes', (body: string) => Buffer.from(body)],
    ['makes an array', (body: string) => [body]],
    ['makes null', () => null],
  ])('a parser that %s (no JSON object): request.callback is parsed from the verified bytes, request.body stays the parser\'s', async (_name, parse) => {
    const own = Fastify();
    own.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, parse(body as string)));
    await own.register(xVerification, { callbacks: DEFAULT_CUSTOMER });
    own.post('/cb', { config: { xCallback: true } }, async (request) => ({ callback: request.callback, body: request.body ?? 'none' }));
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const cb = await own.inject({ method: 'POST', url: '/cb', payload: signed.body, headers: signed.headers });
    expect(cb.statusCode).toBe(200);
    expect(cb.json().callback).toEqual(payload);
    await own.close();
  });
});

/** A chunked POST /cb over a raw socket, the body cut at the given byte offsets, each piece written on its own turn (so that the server reads them apart). */
function sendInPieces(bytes: Buffer, headers: Record<string, string>, cuts: number[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    const head = [`POST /cb HTTP/1.1`, `host: 127.0.0.1`, 'connection: close', 'transfer-encoding: chunked', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    const pieces = [0, ...cuts].map((start, i) => bytes.subarray(start, [...cuts, bytes.length][i]));
    const next = () => {
      const piece = pieces.shift();
      if (!piece) return void socket.write('0\r\n\r\n');
      socket.write(`${piece.length.toString(16)}\r\n`);
      socket.write(piece);
      socket.write('\r\n');
      setTimeout(next, 20);
    };
    next();
  });
}

/** The JSON of a chunked answer's body. */
const chunkedJson = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4).replace(/^[0-9a-f]+\r\n|\r\n0\r\n\r\n$/g, '')) as unknown;

describe('@x/fastify: request.rawBody', () => {
  it('is the verified bytes on a callback route, and stays assignable by the application elsewhere', async () => {
    const own = Fastify();
    await own.register(xVerification, { callbacks: DEFAULT_CUSTOMER });
    own.post('/cb', { config: { xCallback: true } }, async (request) => ({ raw: Buffer.from(request.rawBody).toString('utf8'), bytes: request.rawBody instanceof Uint8Array }));
    own.post('/mine', { preHandler: async (request) => void (request.rawBody = new Uint8Array([1, 2, 3])) }, async (request) => ({ raw: [...(request.rawBody ?? [])] }));
    const signed = createSignedCallback(payload, DEFAULT_CUSTOMER);
    const cb = await own.inject({ method: 'POST', url: '/cb', payload: signed.body, headers: signed.headers });
    expect(cb.json()).toEqual({ raw: signed.body, bytes: true });
    const mine = await own.inject({ method: 'POST', url: '/mine', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(mine.json()).toEqual({ raw: [1, 2, 3] });
    await own.close();
  });
});
