// The shared adapter core: read (one body reader, one 413 path), decide, respond, for callbacks and
// signed requests alike, on web-standard Requests (what @x/hono gives it).
import { signRequest } from '@x/auth';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { BodyTooLargeError, type CallbackAnswer, type CallbackPayload } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';
import { createMemoryReplayStore } from '@x/auth';
import { decideCallback, readRequestBody, receiveCallback, receiveSignedRequest, type CallbackExchange, type SignedRequestExchange } from '../src/adapter-entry.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };
const payload: CallbackPayload = { reference_id: 'C'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };

/** An exchange over a web Request that records what was answered. */
function exchangeOf(request: Request) {
  const answers: Array<{ answer: CallbackAnswer; reason: string }> = [];
  const exchange: CallbackExchange & SignedRequestExchange = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    readBody: (limit) => readRequestBody(request, limit),
    respond: (answer, reason) => void answers.push({ answer, reason }),
  };
  return { exchange, answers };
}

describe('receiveCallback', () => {
  it('gives the verified callback and answers nothing', async () => {
    const signed = createSignedCallback(payload, credentials);
    const { exchange, answers } = exchangeOf(new Request('http://x/cb', { method: 'POST', body: signed.body, headers: signed.headers }));
    const callback = await receiveCallback(exchange, credentials, 1024);
    expect(callback?.payload).toEqual(payload);
    expect(answers).toEqual([]);
  });

  it('answers 413 once, with the shared body, when the body is over the limit', async () => {
    const signed = createSignedCallback({ ...payload, external_id: 'x'.repeat(300) } as never, credentials);
    const { exchange, answers } = exchangeOf(new Request('http://x/cb', { method: 'POST', body: signed.body, headers: signed.headers }));
    expect(await receiveCallback(exchange, credentials, 64)).toBeUndefined();
    expect(answers).toEqual([{ reason: 'body_too_large', answer: { status: 413, headers: {}, body: { error: 'body_too_large', message: 'The body is larger than 64 bytes.' } } }]);
  });

  it('a read failure that is not the limit is thrown, not answered', async () => {
    const { exchange, answers } = exchangeOf(new Request('http://x/cb', { method: 'POST', body: 'x' }));
    exchange.readBody = async () => {
      throw new TypeError('the stream broke');
    };
    await expect(receiveCallback(exchange, credentials, 64)).rejects.toThrow('the stream broke');
    expect(answers).toEqual([]);
  });

  it('a reader that throws at once (not async) still gives a rejected promise, for callbacks and signed requests', async () => {
    const receivers = [(e: CallbackExchange & SignedRequestExchange) => receiveCallback(e, credentials, 64), (e: CallbackExchange & SignedRequestExchange) => receiveSignedRequest(e, { credentials: () => credentials }, 64)];
    for (const receive of receivers) {
      const { exchange, answers } = exchangeOf(new Request('http://x/cb', { method: 'POST', body: 'x' }));
      exchange.readBody = () => {
        throw new TypeError('the parser consumed the body');
      };
      let result: Promise<unknown> | undefined;
      expect(() => (result = receive(exchange))).not.toThrow();
      await expect(result).rejects.toThrow('the parser consumed the body');
      expect(answers).toEqual([]);
    }
  });

  it('a decision that throws (a body parsed by someone else) rejects, nothing answered', async () => {
    const signed = createSignedCallback(payload, credentials);
    const { exchange: e, answers } = exchangeOf(new Request('http://x/cb', { method: 'POST', body: signed.body, headers: signed.headers }));
    e.readBody = () => Promise.resolve({} as never);
    await expect(receiveCallback(e, credentials, 1024)).rejects.toThrow();
    expect(answers).toEqual([]);
  });
});

describe('decideCallback (the bytes already read: one pass, always a promise)', () => {
  const signed = createSignedCallback(payload, credentials);
  const recorder = () => {
    const answers: Array<{ status: number; reason: string }> = [];
    return { answers, exchange: { headers: signed.headers, respond: (answer: CallbackAnswer, reason: string) => void answers.push({ status: answer.status, reason }) } };
  };

  it('without a replayStore too, answers with a promise: the callback, or undefined once the refusal is written', async () => {
    const ok = recorder();
    const decided = decideCallback(ok.exchange, signed.body, credentials);
    expect(decided).toBeInstanceOf(Promise);
    expect((await decided)!.payload).toEqual(payload);
    expect(ok.answers).toEqual([]);

    const tampered = recorder();
    expect(await decideCallback(tampered.exchange, signed.body.replace('Delivered', 'Delivered!'), credentials)).toBeUndefined();
    expect(tampered.answers).toEqual([{ status: 401, reason: 'signature_mismatch' }]);
  });

  it('misuse (a parsed body, no key) is a rejected promise, never a synchronous throw, and answers nothing', async () => {
    const { exchange, answers } = recorder();
    let decided: Promise<unknown> | undefined;
    expect(() => void (decided = decideCallback(exchange, { parsed: true } as unknown as string, credentials))).not.toThrow();
    await expect(decided).rejects.toMatchObject({ code: 'body_parsed' });
    expect(() => void (decided = decideCallback(exchange, signed.body, { customerId: credentials.customerId }))).not.toThrow();
    await expect(decided).rejects.toMatchObject({ code: 'missing_key' });
    expect(answers).toEqual([]);
  });

  it("uses the adapter's parse of the same bytes, and still verifies the bytes", async () => {
    const { exchange } = recorder();
    const parsed = { ...payload };
    const callback = await decideCallback({ ...exchange, parsed: () => parsed }, signed.body, credentials);
    expect(callback!.payload).toBe(parsed);
    expect(await decideCallback({ ...exchange, parsed: () => parsed }, `${signed.body} `, credentials)).toBeUndefined();
  });

  it('with a replayStore, answers with a promise: in progress first, then 200 duplicate once completed', async () => {
    const options = { ...credentials, replayStore: createMemoryReplayStore() };
    const first = recorder();
    const decided = decideCallback(first.exchange, signed.body, options);
    expect(decided).toBeInstanceOf(Promise);
    const callback = await decided;
    await callback!.complete();
    const again = recorder();
    expect(await decideCallback(again.exchange, signed.body, options)).toBeUndefined();
    expect(again.answers).toEqual([{ status: 200, reason: 'duplicate' }]);
  });
});

describe('receiveSignedRequest', () => {
  const options = { credentials: (id: string) => (id === credentials.customerId ? credentials : undefined) };
  const body = 'phone_number=15555550100&message=hi&message_type=ARN';
  const signed = (url: string, sent = body) => {
    const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, credentials);
    return new Request(url, { method: 'POST', headers, body: sent });
  };

  it('gives the verified customer and scheme and answers nothing', async () => {
    const { exchange, answers } = exchangeOf(signed('http://service.test/v1/messaging?x=1'));
    expect(await receiveSignedRequest(exchange, options, 1024)).toEqual({ customerId: credentials.customerId, scheme: 'digest' });
    expect(answers).toEqual([]);
  });

  it('answers 401 with the service error body and the reason for a tampered body', async () => {
    const { exchange, answers } = exchangeOf(signed('http://service.test/v1/messaging', body.replace('hi', 'yo')));
    expect(await receiveSignedRequest(exchange, options, 1024)).toBeUndefined();
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ reason: 'signature_mismatch', answer: { status: 401, headers: {}, body: { error: 'signature_mismatch', status: { code: expect.any(Number) } } } });
  });

  it('answers the same 413 as callbacks over the limit, before any verification', async () => {
    const { exchange, answers } = exchangeOf(signed('http://service.test/v1/messaging'));
    expect(await receiveSignedRequest(exchange, options, 8)).toBeUndefined();
    expect(answers).toEqual([{ reason: 'body_too_large', answer: { status: 413, headers: {}, body: { error: 'body_too_large', message: 'The body is larger than 8 bytes.' } } }]);
  });
});

describe('readRequestBody refuses a declared oversized body at once', () => {
  it('throws BodyTooLargeError without waiting for the sender to stop (its cancel never settles)', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({ cancel: () => ((cancelled = true), new Promise<void>(() => undefined)) });
    const request = new Request('http://127.0.0.1/callbacks', { method: 'POST', body, headers: { 'content-length': '999999' }, duplex: 'half' } as RequestInit);
    const answer = await Promise.race([readRequestBody(request, 1024).catch((error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_000))]);
    expect(answer).toBeInstanceOf(BodyTooLargeError);
    expect(cancelled).toBe(true);
  });
});
