// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations: options straight from the environment (string | undefined) compile.
import { createMemoryReplayStore, createSigner, signRequest, verifyRequest, XError } from '@x/auth';
import { expectTypeOf } from 'vitest';

declare const env: Record<string, string | undefined>;
const credentials = { customerId: 'x', apiKey: 'AAAA' };

signRequest({ method: 'POST', url: 'https://x/v1', contentType: env.CONTENT_TYPE, body: env.BODY, headers: undefined }, credentials, { algorithm: undefined, dateHeader: undefined, date: env.DATE, nonce: env.NONCE });
createSigner(credentials, { mac: undefined, algorithm: undefined });
void verifyRequest(
  { method: 'GET', url: '/v1/x', headers: {}, body: undefined },
  { credentials: () => credentials, now: undefined, replayStore: undefined, allowBasic: undefined, requireNonce: undefined, allowDigest: undefined, clockSkewMs: undefined, mac: undefined },
);
createMemoryReplayStore({ maxEntries: env.MAX ? Number(env.MAX) : undefined, now: undefined });

try {
  createSigner({ customerId: 'x', apiKey: '!' });
} catch (e) {
  if (e instanceof XError) expectTypeOf(e.code).toEqualTypeOf<string>();
}
