import { createKeyCache, type Clock, type DeliveryStore, type KeyCache, type MacProvider } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import type { CallbackPayload } from '@x/webhooks';
import express, { type Request, type RequestHandler } from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { saveRawBody, verifiedCallback, verifiedRequest, verifyCallbacks, verifySignedRequests, type CallbackMiddlewareOptions, type MiddlewareOptions, type SignedRequestMiddlewareOptions, type VerificationFailure, type VerifiedCallbackRequest } from '../src/index.js';

describe('@x/express public types', () => {
  it('middlewares are request handlers', () => {
    expectTypeOf(verifyCallbacks({ customerId: 'x', apiKey: 'AAAA' })).toEqualTypeOf<RequestHandler>();
    expectTypeOf(verifySignedRequests({ credentials: () => undefined })).toEqualTypeOf<RequestHandler>();
  });
  it('the one `mac` option (a MacProvider) and an optional keyCache; the former `signer` is gone', () => {
    expectTypeOf<CallbackMiddlewareOptions['mac']>().toEqualTypeOf<MacProvider | undefined>();
    expectTypeOf<CallbackMiddlewareOptions['keyCache']>().toEqualTypeOf<KeyCache | undefined>();
    verifyCallbacks({ customerId: 'x', apiKey: 'AAAA', mac: nodeMac, keyCache: createKeyCache({ mac: nodeMac }) });
    verifySignedRequests({ credentials: () => undefined, mac: nodeMac, keyCache: createKeyCache({ mac: nodeMac, limit: 16 }) });
    // @ts-expect-error `signer` was the second HMAC plug-in type: pass `mac`
    verifyCallbacks({ customerId: 'x', apiKey: 'AAAA', signer: () => '' });
  });
  it('declaration merging types req.callback and req.customerId', () => {
    expectTypeOf<Request['callback']>().toEqualTypeOf<CallbackPayload | undefined>();
    expectTypeOf<Request['customerId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Request['callbackHeader']>().toEqualTypeOf<'authorization' | 'x-ts-authorization' | undefined>();
  });
  it('options are checked', () => {
    // @ts-expect-error: customerId is required
    verifyCallbacks({ apiKey: 'AAAA' });
  });
  it('callback options take a delivery store, its lease and a store-error hook', () => {
    expectTypeOf<CallbackMiddlewareOptions['replayStore']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf<CallbackMiddlewareOptions['leaseMs']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CallbackMiddlewareOptions['onStoreError']>().toEqualTypeOf<((error: unknown) => void) | undefined>();
    // @ts-expect-error: a store that can only claim cannot hold deliveries
    verifyCallbacks({ customerId: 'x', apiKey: 'AAAA', replayStore: { claim: () => true } });
  });
  it('saveRawBody is a verify hook of every body parser', () => {
    express.json({ verify: saveRawBody });
    express.urlencoded({ extended: false, verify: saveRawBody });
    express.text({ verify: saveRawBody });
    express.raw({ verify: saveRawBody });
    expectTypeOf<Request['rawBody']>().toEqualTypeOf<Uint8Array | string | undefined>();
  });
});

// "Types that narrow": the same idea as Fastify's typed routes, as handler wrappers.
describe('verified handlers see non-undefined types', () => {
  it('verifiedCallback: req.callback without undefined', () => {
    const app = express();
    app.post(
      '/callbacks/:tenant',
      verifyCallbacks({ customerId: 'x', apiKey: 'AAAA' }),
      verifiedCallback((req, res) => {
        expectTypeOf(req.callback).toEqualTypeOf<CallbackPayload>();
        expectTypeOf(req.callbackHeader).toEqualTypeOf<'authorization' | 'x-ts-authorization'>();
        expectTypeOf(req.params).toEqualTypeOf<Request['params']>();
        res.json({ id: req.callback.reference_id });
      }),
    );
    // Route params typed by hand, as with any Express handler passed through a function.
    app.post('/callbacks/:tenant', verifiedCallback<{ tenant: string }>((req) => expectTypeOf(req.params.tenant).toEqualTypeOf<string>()));
    expectTypeOf(verifiedCallback(() => undefined)).toExtend<RequestHandler>();
    expectTypeOf<VerifiedCallbackRequest['callback']>().toEqualTypeOf<CallbackPayload>();
  });

  it('verifiedRequest: req.customerId without undefined', () => {
    const app = express();
    app.get(
      '/v1/messaging/:id',
      verifySignedRequests({ credentials: () => undefined }),
      verifiedRequest(async (req, res) => {
        expectTypeOf(req.customerId).toEqualTypeOf<string>();
        res.json({ customer: req.customerId });
      }),
    );
  });

  it('options accept undefined where a value is optional', () => {
    expectTypeOf<CallbackMiddlewareOptions['limit']>().toEqualTypeOf<number | undefined>();
  });

  it('both middlewares take MiddlewareOptions (limit, onError); no public type is called Common', () => {
    expectTypeOf<MiddlewareOptions['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CallbackMiddlewareOptions>().toMatchTypeOf<MiddlewareOptions>();
    expectTypeOf<SignedRequestMiddlewareOptions>().toMatchTypeOf<MiddlewareOptions>();
    expectTypeOf<Parameters<NonNullable<MiddlewareOptions['onError']>>[0]>().toEqualTypeOf<VerificationFailure>();
    // @ts-expect-error renamed MiddlewareOptions
    type _Gone = import('../src/index.js').Common;
  });
});

describe('now takes the SDK clock', () => {
  it('verifySignedRequests({ now }) takes () => Date | number', () => {
    expectTypeOf<NonNullable<SignedRequestMiddlewareOptions['now']>>().toEqualTypeOf<Clock>();
  });
});
