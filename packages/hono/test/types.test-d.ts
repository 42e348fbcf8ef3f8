import type { Clock, DeliveryStore, KeyCache, MacProvider } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import type { CallbackPayload } from '@x/webhooks';
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expectTypeOf, it } from 'vitest';
import {
  verifyCallbacks,
  verifySignedRequests,
  type CallbackEnv,
  type CallbackMiddlewareOptions,
  type MiddlewareOptions,
  type SignedRequestEnv,
  type SignedRequestMiddlewareOptions,
  type VerificationFailure,
} from '../src/index.js';

const options = { customerId: 'x', apiKey: 'AAAA' };

describe('@x/hono public types', () => {
  it('the one `mac` option (a MacProvider) and an optional keyCache, in options and in factories; the former `signer` is gone', () => {
    expectTypeOf<CallbackMiddlewareOptions['mac']>().toEqualTypeOf<MacProvider | undefined>();
    expectTypeOf<CallbackMiddlewareOptions['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    verifyCallbacks(() => ({ customerId: 'x', apiKey: 'AAAA', mac: nodeMac }));
    verifySignedRequests({ credentials: () => undefined, mac: nodeMac });
    // @ts-expect-error `signer` was the second HMAC plug-in type: pass `mac`
    verifyCallbacks({ customerId: 'x', apiKey: 'AAAA', signer: () => '' });
  });
  it('both middlewares take MiddlewareOptions (limit, onError); no public type is called Common', () => {
    expectTypeOf<CallbackMiddlewareOptions>().toMatchTypeOf<MiddlewareOptions>();
    expectTypeOf<SignedRequestMiddlewareOptions>().toMatchTypeOf<MiddlewareOptions>();
    expectTypeOf<Parameters<NonNullable<MiddlewareOptions['onError']>>[0]>().toEqualTypeOf<VerificationFailure>();
    // @ts-expect-error renamed MiddlewareOptions
    type _Gone = import('../src/index.js').Common;
  });
  it('the middlewares are Hono middleware with their own Env', () => {
    expectTypeOf(verifyCallbacks(options)).toEqualTypeOf<MiddlewareHandler<CallbackEnv>>();
    expectTypeOf(verifySignedRequests({ credentials: () => undefined })).toEqualTypeOf<MiddlewareHandler<SignedRequestEnv>>();
  });

  it('c.get("callback") / c.var.callback are typed on the route that uses the middleware', () => {
    new Hono().post('/cb', verifyCallbacks(options), (c) => {
      expectTypeOf(c.get('callback')).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(c.var.callback).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(c.get('callbackHeader')).toEqualTypeOf<'authorization' | 'x-ts-authorization'>();
      // @ts-expect-error: the callback middleware does not set customerId
      c.get('customerId');
      return c.json({ ok: true });
    });
  });

  it('c.get("customerId") is typed on a signed-request route', () => {
    new Hono().post('/v1/messaging', verifySignedRequests({ credentials: () => undefined }), (c) => {
      expectTypeOf(c.get('customerId')).toEqualTypeOf<string>();
      expectTypeOf(c.var.customerId).toEqualTypeOf<string>();
      return c.text('ok');
    });
  });

  it('an app typed with the exported Env has the variables on every route (middleware mounted with use)', () => {
    const app = new Hono<CallbackEnv & SignedRequestEnv>();
    app.use('/cb', verifyCallbacks(options));
    app.post('/cb', (c) => {
      expectTypeOf(c.get('callback')).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(c.get('customerId')).toEqualTypeOf<string>();
      return c.json({ ok: true });
    });
  });

  it('options are checked', () => {
    // @ts-expect-error: customerId is required
    verifyCallbacks({ apiKey: 'AAAA' });
    // @ts-expect-error: a store that can only claim cannot hold deliveries
    verifyCallbacks({ ...options, replayStore: { claim: () => true } });
    expectTypeOf<CallbackMiddlewareOptions['replayStore']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf<CallbackMiddlewareOptions['limit']>().toEqualTypeOf<number | undefined>();
    verifyCallbacks({ ...options, onError: (failure, c) => c.json({ reason: failure.reason }, 401) });
    expectTypeOf<Parameters<NonNullable<CallbackMiddlewareOptions['onError']>>[0]>().toEqualTypeOf<VerificationFailure>();
    // @ts-expect-error: onError answers with a Response
    verifyCallbacks({ ...options, onError: () => 'no' });
  });

  it('options may come from the Context (Workers: secrets in c.env), typed by the Env argument', () => {
    type Bindings = { CUSTOMER_ID: string; API_KEY: string };
    const app = new Hono<{ Bindings: Bindings }>();
    app.post(
      '/callbacks',
      verifyCallbacks<{ Bindings: Bindings }>((c) => ({ customerId: c.env.CUSTOMER_ID, apiKey: c.env.API_KEY })),
      (c) => {
        expectTypeOf(c.get('callback')).toEqualTypeOf<CallbackPayload>();
        expectTypeOf(c.env.API_KEY).toEqualTypeOf<string>();
        return c.json({ ok: true });
      },
    );
    app.post('/v1/messaging', verifySignedRequests<{ Bindings: Bindings }>((c) => ({ credentials: (id) => (id === c.env.CUSTOMER_ID ? { customerId: id, apiKey: c.env.API_KEY } : undefined) })), (c) => c.text(c.get('customerId')));
    // @ts-expect-error: not a binding of this Env
    verifyCallbacks<{ Bindings: Bindings }>((c) => ({ customerId: c.env.NOPE, apiKey: 'AAAA' }));
  });
});

describe('now takes the SDK clock', () => {
  it('verifySignedRequests({ now }) takes () => Date | number', () => {
    expectTypeOf<NonNullable<SignedRequestMiddlewareOptions['now']>>().toEqualTypeOf<Clock>();
  });
});
