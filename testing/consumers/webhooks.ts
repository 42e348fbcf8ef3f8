// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations.
import { callbackAnswer, callbackKind, handleCallback, isCallbackKind, verifyCallback, verifyCallbackRequest, type CallbackPayload } from '@x/webhooks';
import { expectTypeOf } from 'vitest';

declare const env: Record<string, string | undefined>;
declare const body: Uint8Array;
declare const request: Request;

const options = {
  customerId: 'x',
  apiKey: env.API_KEY,
  apiKeys: undefined,
  allowLegacyHeader: undefined,
  replayStore: undefined,
  dedupeTtlMs: undefined,
  leaseMs: undefined,
  mac: undefined,
  keyCache: undefined,
  onStoreError: undefined,
};
void verifyCallback({ body, headers: {}, parsed: undefined }, options);
void verifyCallbackRequest(request, { ...options, limit: undefined });
void handleCallback({ body, headers: {} }, options, (payload) => callbackKind(payload));
callbackAnswer('in_progress', { leaseMs: undefined, limit: undefined });

declare const payload: CallbackPayload;
if (isCallbackKind(payload, 'verify_sms')) expectTypeOf(payload.verify.code_entered).toEqualTypeOf<string | null>();
