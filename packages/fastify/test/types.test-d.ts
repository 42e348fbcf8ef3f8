import type { DeliveryStore } from '@x/auth';
import type { CallbackPayload } from '@x/webhooks';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
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
  it('callback options take a delivery store and its lease', () => {
    type Callbacks = NonNullable<XFastifyOptions['callbacks']>;
    expectTypeOf<Callbacks['replayStore']>().toEqualTypeOf<DeliveryStore | undefined>();
    expectTypeOf<Callbacks['leaseMs']>().toEqualTypeOf<number | undefined>();
  });
});
