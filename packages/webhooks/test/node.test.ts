import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import callbackVector from '../../auth/vectors/callback.json' with { type: 'json' };
import { verifyCallback } from '../src/index.js';
import { createSignedCallback } from '../src/testing.js';
import { createKeyCache, prepareMac, type MacProvider } from '@x/auth';
import { encodeBase64 } from '@x/auth/protocol';
import { nodeMac } from '@x/auth/node';
import { BodyTooLargeError, collect } from '../src/node/index.js';

const credentials = { customerId: callbackVector.customerId, apiKey: callbackVector.apiKey };

describe('@x/webhooks/node', () => {
  it('verifyCallback takes the one `mac` option of @x/auth (nodeMac), for text and bytes, and still rejects a tampered body', async () => {
    const options = { ...credentials, mac: nodeMac };
    const headers = { authorization: callbackVector.authorization };
    expect((await verifyCallback({ body: callbackVector.body, headers }, options)).ok).toBe(true);
    expect((await verifyCallback({ body: new TextEncoder().encode(callbackVector.body), headers }, options)).ok).toBe(true);
    expect((await verifyCallback({ body: callbackVector.body + ' ', headers }, options)).ok).toBe(false);
  });

  it('collect reads a stream whole, and stops at the limit', async () => {
    expect(await collect(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 10)).toEqual(new TextEncoder().encode('abcd'));
    await expect(collect(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});

/** A provider that records each key it prepares. */
function counting() {
  const prepared: string[] = [];
  const mac: MacProvider = (algorithm, key) => {
    prepared.push(encodeBase64(key));
    return prepareMac(algorithm, key);
  };
  return { mac, prepared };
}

describe('the HMAC of callbacks: one `mac` option, keys cached only by their owner', () => {
  const headers = { authorization: callbackVector.authorization };

  it('verifyCallback uses the `mac` it is given, and keeps nothing between one-off calls', async () => {
    const { mac, prepared } = counting();
    expect((await verifyCallback({ body: callbackVector.body, headers }, { ...credentials, mac })).ok).toBe(true);
    expect((await verifyCallback({ body: callbackVector.body, headers }, { ...credentials, mac })).ok).toBe(true);
    expect(prepared).toEqual([credentials.apiKey, credentials.apiKey]);
  });

  it('with a keyCache, each key is prepared once across callbacks (every key of a rotation)', async () => {
    const { mac, prepared } = counting();
    const other = encodeBase64(new Uint8Array(32).fill(9));
    const options = { customerId: credentials.customerId, apiKeys: [other, credentials.apiKey], keyCache: createKeyCache({ mac }) };
    for (let i = 0; i < 3; i++) expect((await verifyCallback({ body: callbackVector.body, headers }, options)).ok).toBe(true);
    expect(prepared).toEqual([other, credentials.apiKey]);
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
