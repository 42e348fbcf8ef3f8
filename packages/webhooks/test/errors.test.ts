// One error model: every error @x/webhooks throws is an XError (from @x/auth) with a stable code,
// and says what to do. instanceof holds across the ESM and CommonJS builds of both entries.
import { XError } from '@x/auth';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { assertCallback, BodyTooLargeError, CallbackVerificationError, verifyCallback, verifyCallbackRequest, WebhookError, type CallbackPayload } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';
import { readRequestBody } from '../src/adapter-entry.js';
import { collect } from '../src/node/index.js';

const account = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('callback key') };
const payload: CallbackPayload = { reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00Z' } };
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);

describe('every error of @x/webhooks is an XError with a stable code', () => {
  it('assertCallback throws CallbackVerificationError: code callback_rejected, the reason, what to do', async () => {
    const signed = createSignedCallback(payload, { ...account, apiKey: btoa('another key') });
    const error = await failure(assertCallback({ body: signed.body, headers: signed.headers }, account));
    expect(error).toBeInstanceOf(CallbackVerificationError);
    expect(error).toBeInstanceOf(XError);
    expect(error).toMatchObject({ code: 'callback_rejected', reason: 'signature_mismatch', name: 'CallbackVerificationError' });
    expect((error as Error).message).toMatch(/raw bytes/);
  });

  it("a body already read (c.req.json() before verifyCallbackRequest) is WebhookError('body_used'), saying what to do", async () => {
    const signed = createSignedCallback(payload, account);
    const request = new Request('https://app.example/callbacks', { method: 'POST', headers: signed.headers, body: signed.body });
    await request.json();
    const error = await failure(verifyCallbackRequest(request, account));
    expect(error).toBeInstanceOf(WebhookError);
    expect(error).toBeInstanceOf(XError);
    expect((error as WebhookError).code).toBe('body_used');
    expect((error as Error).message).toMatch(/request\.clone\(\)/);
  });

  it("a parsed body is WebhookError('body_parsed'); no key is WebhookError('missing_key')", async () => {
    const parsed = await failure(verifyCallback({ body: payload as never, headers: {} }, account));
    expect(parsed).toBeInstanceOf(XError);
    expect((parsed as WebhookError).code).toBe('body_parsed');
    const noKey = await failure(verifyCallback({ body: '{}', headers: {} }, { customerId: account.customerId }));
    expect(noKey).toBeInstanceOf(XError);
    expect((noKey as WebhookError).code).toBe('missing_key');
  });

  it('a body over the limit is BodyTooLargeError: code body_too_large, the limit (web and Node readers)', async () => {
    const web = await failure(readRequestBody(new Request('https://x/', { method: 'POST', body: 'x'.repeat(20) }), 10));
    const node = await failure(collect(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), 10));
    for (const error of [web, node]) {
      expect(error).toBeInstanceOf(BodyTooLargeError);
      expect(error).toBeInstanceOf(XError);
      expect(error).toMatchObject({ code: 'body_too_large', limit: 10, name: 'BodyTooLargeError' });
    }
  });

  it('instanceof holds across the ESM and CommonJS builds of the main and /node entries', async () => {
    const dist = (name: string) => new URL(`../dist/${name}`, import.meta.url);
    expect(existsSync(dist('node.cjs')), 'build @x/webhooks first (pnpm turbo run build)').toBe(true);
    type Main = typeof import('../src/index.js');
    type Node = typeof import('../src/node/index.js');
    const esm = (await import(dist('index.js').href)) as Main;
    const cjs = createRequire(import.meta.url)(dist('index.cjs').pathname) as Main;
    const cjsNode = createRequire(import.meta.url)(dist('node.cjs').pathname) as Node;
    const tooLarge = await failure(cjsNode.collect(Readable.from([Buffer.alloc(16)]), 10));
    expect(tooLarge).toBeInstanceOf(esm.BodyTooLargeError);
    expect(tooLarge).toBeInstanceOf(cjs.BodyTooLargeError);
    expect(tooLarge).toBeInstanceOf(XError);
    expect(tooLarge).not.toBeInstanceOf(esm.WebhookError);
    expect(new cjs.WebhookError('body_used', 'x')).toBeInstanceOf(esm.WebhookError);
    expect(new cjs.WebhookError('body_used', 'x')).not.toBeInstanceOf(esm.CallbackVerificationError);
    expect(new esm.CallbackVerificationError('signature_mismatch', 'x')).toBeInstanceOf(cjs.CallbackVerificationError);
  });
});
