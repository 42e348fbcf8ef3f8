import type { CallbackPayload } from '@x/webhooks';
import type { Request, RequestHandler } from 'express';
import { describe, expectTypeOf, it } from 'vitest';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';

describe('@x/express public types', () => {
  it('middlewares are request handlers', () => {
    expectTypeOf(verifyCallbacks({ customerId: 'x', apiKey: 'AAAA' })).toEqualTypeOf<RequestHandler>();
    expectTypeOf(verifySignedRequests({ credentials: () => undefined })).toEqualTypeOf<RequestHandler>();
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
});
