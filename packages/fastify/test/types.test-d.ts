import type { Clock, DeliveryStore, KeyCache, MacProvider } from '@x/auth';
import type { CallbackOptions, CallbackPayload } from '@x/webhooks';
import Fastify, { type FastifyContextConfig, type FastifyRequest } from 'fastify';
import { describe, expectTypeOf, it } from 'vitest';
import type { XFastifyOptions } from '../src/index.js';

describe('@x/fastify public types', () => {
  it('declaration merging types the request decorators', () => {
    expectTypeOf<FastifyRequest['callback']>().toEqualTypeOf<CallbackPayload | null>();
    expectTypeOf<FastifyRequest['customerId']>().toEqualTypeOf<string | null>();
    expectTypeOf<FastifyRequest['rawBody']>().toEqualTypeOf<Uint8Array | null>();
  });
  it('route config accepts the opt-in flags', () => {
    expectTypeOf<FastifyContextConfig['xCallback']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<FastifyContextConfig['xSignedRequest']>().toEqualTypeOf<boolean | undefined>();
  });
  it('plugin options', () => {
    expectTypeOf<XFastifyOptions['callbackRoutes']>().toEqualTypeOf<string[] | undefined>();
  });
  it('both kinds of options take the one `mac` option and a keyCache; the former `signer` is gone', () => {
    type Callbacks = NonNullable<XFastifyOptions['callbacks']>;
    type Signed = NonNullable<XFastifyOptions['signedRequests']>;
    expectTypeOf<Callbacks['mac']>().toEqualTypeOf<MacProvider | undefined>();
    expectTypeOf<Signed['mac']>().toEqualTypeOf<MacProvider | undefined>();
    expectTypeOf<Callbacks['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    expectTypeOf<Signed['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    // @ts-expect-error `signer` was the second HMAC plug-in type: pass `mac`
    const callbacks: Callbacks = { customerId: 'x', apiKey: 'AAAA', signer: () => '' };
    void callbacks;
  });
  it('callback options take a delivery store and its lease', () => {
    type Callbacks = NonNullable<XFastifyOptions['callbacks']>;
    expectTypeOf<Callbacks['replayStore']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf<Callbacks['leaseMs']>().toEqualTypeOf<number | undefined>();
  });
});

// "Types that narrow": a route that opts in sees its decorators without `| null`.
describe('verified routes get non-null types', () => {
  it('config: { xCallback: true } types request.callback without null', () => {
    const app = Fastify();
    app.post('/callbacks', { config: { xCallback: true } }, async (request) => {
      expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload>();
      expectTypeOf(request.callbackHeader).toEqualTypeOf<'authorization' | 'x-ts-authorization'>();
      expectTypeOf(request.rawBody).toEqualTypeOf<Uint8Array>();
      expectTypeOf(request.customerId).toEqualTypeOf<string | null>();
      return request.callback.reference_id;
    });
    app.route({
      method: 'POST',
      url: '/callbacks-2',
      config: { xCallback: true },
      handler: async (request) => expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload>(),
    });
  });

  it('config: { xSignedRequest: true } types request.customerId without null', () => {
    const app = Fastify();
    app.post('/v1/messaging', { config: { xSignedRequest: true } }, async (request) => {
      expectTypeOf(request.customerId).toEqualTypeOf<string>();
      expectTypeOf(request.rawBody).toEqualTypeOf<Uint8Array>();
      expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload | null>();
    });
  });

  it('routes that do not opt in (or opt in by list only) keep null, and route generics still work', () => {
    const app = Fastify();
    app.post('/plain', async (request) => {
      expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload | null>();
      expectTypeOf(request.customerId).toEqualTypeOf<string | null>();
    });
    app.post<{ Body: { a: number } }, { xCallback: true }>('/generic', { config: { xCallback: true } }, async (request) => {
      expectTypeOf(request.body.a).toEqualTypeOf<number>();
      expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload>();
    });
    app.post('/off', { config: { xCallback: false } }, async (request) => expectTypeOf(request.callback).toEqualTypeOf<CallbackPayload | null>());
  });

  it('plugin options accept undefined where a value is optional', () => {
    expectTypeOf<XFastifyOptions['callbacks']>().toEqualTypeOf<CallbackOptions | undefined>();
  });
});

describe('entry point', () => {
  it('exports the plugin and its options, not the internal Mode type', async () => {
    const main = await import('../src/index.js');
    expectTypeOf(main.default).toEqualTypeOf(main.xVerification);
    // @ts-expect-error Mode is internal (raw-body.ts), not part of the public API
    expectTypeOf<import('../src/index.js').Mode>().toEqualTypeOf<'callback' | 'signed' | undefined>();
  });
});

describe('now takes the SDK clock', () => {
  it('signedRequests.now takes () => Date | number', () => {
    expectTypeOf<NonNullable<NonNullable<XFastifyOptions['signedRequests']>['now']>>().toEqualTypeOf<Clock>();
  });
});
