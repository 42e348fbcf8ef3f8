// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations.
import { xVerification } from '@x/fastify';
import Fastify from 'fastify';
import { expectTypeOf } from 'vitest';

declare const env: Record<string, string | undefined>;
const app = Fastify();
await app.register(xVerification, {
  callbacks: { customerId: 'x', apiKey: env.API_KEY, replayStore: undefined },
  signedRequests: { credentials: () => undefined, replayStore: undefined, allowBasic: undefined },
  callbackRoutes: undefined,
  signedRoutes: undefined,
});
app.post('/callbacks', { config: { xCallback: true } }, async (request) => {
  expectTypeOf(request.callback.reference_id).toEqualTypeOf<string>();
});
