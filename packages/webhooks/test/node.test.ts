import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { verifyCallback } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';
import { BodyTooLargeError, collect, nativeCallbackSignature } from '../src/node/index.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };

describe('@x/webhooks/node', () => {
  it('nativeCallbackSignature reproduces the golden vector, for text and bytes', () => {
    expect(nativeCallbackSignature(callbackVector.body, callbackVector.apiKey)).toBe(callbackVector.signature);
    expect(nativeCallbackSignature(new TextEncoder().encode(callbackVector.body), callbackVector.apiKey)).toBe(callbackVector.signature);
  });

  it('verifyCallback accepts it as signer and still rejects a tampered body', async () => {
    const options = { ...credentials, signer: nativeCallbackSignature };
    expect((await verifyCallback({ body: callbackVector.body, headers: { authorization: callbackVector.authorization } }, options)).ok).toBe(true);
    expect((await verifyCallback({ body: callbackVector.body + ' ', headers: { authorization: callbackVector.authorization } }, options)).ok).toBe(false);
  });

  it('collect reads a stream whole, and stops at the limit', async () => {
    expect(await collect(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 10)).toEqual(new TextEncoder().encode('abcd'));
    await expect(collect(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

describe('parsed payload reuse', () => {
  it('returns the given parsed body once the raw bytes verify, and never trusts it otherwise', async () => {
    const signed = createSignedCallback({ reference_id: 'A'.repeat(32), sub_resource: 'sms', errors: [], status: { code: 200, description: 'x', updated_on: 'y' } }, credentials);
    const parsed = JSON.parse(signed.body);
    const ok = await verifyCallback({ ...signed, parsed }, credentials);
    expect(ok.ok && ok.payload).toBe(parsed);
    const forged = await verifyCallback({ body: signed.body.replace('200', '201'), headers: signed.headers, parsed }, credentials);
    expect(forged.ok).toBe(false);
  });
});
