import { verifyRequest } from '@x/auth';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { sleep } from '../abort.js';
import { BODY_PROBLEMS, parseBody, readBody, type ParsedBody } from '../body.js';
import type { AccountSet, EmulatorContext } from '../context.js';
import type { ErrorFamily, FamilyName } from '../families.js';
import { report } from '../logger.js';
import type { Kind, Transaction } from '../store.js';
import type { Customer, EmulatorEnv } from '../types.js';
import { REFERENCE_ID } from '../validate.js';

/** Per request, set by the service middleware before a product route runs. */
export interface ServiceVariables {
  /** The verified customer. */
  customer: Customer;
  /** The raw body (verified with the signature). */
  raw: Uint8Array;
}
export type ServiceEnv = { Bindings: EmulatorEnv; Variables: ServiceVariables };
export type ServiceApp = Hono<ServiceEnv>;
export type ServiceContext = Context<ServiceEnv>;

/**
 * One product of the service, mounted at `path` with `app.route()`. Every answer of the module is
 * in its `family`; around `routes` the module gets the shared fault and auth middleware, a 404 in
 * its family for operations it does not know, and an error handler that logs and answers 500 JSON.
 */
export interface ProductModule {
  readonly path: string;
  readonly family: FamilyName;
  /** Whose accounts it accepts. Default `rest`: the emulator's `customers`. */
  readonly accounts?: AccountSet;
  /** A larger body gets the family's 413. Default: the emulator's `maxBodyBytes`. */
  readonly maxBodyBytes?: number;
  /** Adds the operations. Register 405s (`allow`) after the routes they complete. */
  routes(app: ServiceApp, ctx: EmulatorContext, family: ErrorFamily): void;
}

/** The Hono sub-app of a product: shared middleware, its routes, then 404 and the error handler. */
export function buildProduct(ctx: EmulatorContext, product: ProductModule): ServiceApp {
  const family = ctx.family(product.family);
  const app = new Hono<ServiceEnv>();
  app.use('*', serviceMiddleware(ctx, family, product.accounts ?? 'rest', product.maxBodyBytes));
  product.routes(app, ctx, family);
  // Hono calls notFound only on the top-level app: a catch-all keeps unknown operations in this family.
  app.all('*', () => family.fail('not_found'));
  app.onError((error, c) => {
    report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
    return family.fail('internal_error');
  });
  return app;
}

/** The 405 of a resource, with the methods it supports. */
export function allow(app: ServiceApp, family: ErrorFamily, path: string, methods: string): void {
  app.all(path, () => family.fail('method_not_allowed', { headers: { allow: methods } }));
}

/** A path parameter that only matches a reference id (32 hex), so other words fall through to 404. */
export const REFERENCE_PARAM = ':id{[0-9A-Fa-f]{32}}';

/**
 * Faults, body limit and authentication, for every service route. Routing uses the normalised
 * path; the signature is verified over the request-target as received when the adapter passes it
 * (`env.requestTarget`), because that is what the client signed.
 */
export function serviceMiddleware(ctx: EmulatorContext, family: ErrorFamily, accounts: AccountSet = 'rest', maxBodyBytes?: number): MiddlewareHandler<ServiceEnv> {
  const { faults, settings } = ctx;
  const auth = ctx.authFor(accounts);
  const customers = ctx.accounts(accounts);
  const limit = Math.min(maxBodyBytes ?? settings.maxBodyBytes, settings.maxBodyBytes);
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (faults.size) {
      const latency = faults.take('latency', method, path);
      // A client that gives up meanwhile (its signal; over HTTP, its connection closing) abandons the request.
      if (latency && !(await sleep(latency.ms, c.req.raw.signal))) {
        return family.fail('unavailable', { description: 'the client gave up during a latency fault; the request was not processed' });
      }
      const status = faults.take('status', method, path);
      if (status) {
        const headers: Record<string, string> = status.retryAfterSeconds !== undefined ? { 'retry-after': String(status.retryAfterSeconds) } : {};
        return family.fail(status.status === 429 ? 'rate_limited' : 'unavailable', { status: status.status, headers });
      }
    }

    let raw: Uint8Array | undefined;
    try {
      raw = await readBody(c.req.raw, limit);
    } catch {
      return family.fail('bad_request', { description: 'the body could not be read' });
    }
    if (!raw) return family.fail('payload_too_large', { description: `at most ${limit} bytes` });

    const result = await verifyRequest({ method, url: c.env?.requestTarget ?? c.req.url, headers: c.req.raw.headers, body: raw.length ? raw : undefined }, auth);
    if (!result.ok) return family.auth(result.reason, result.stringToSign);
    c.set('customer', customers.get(result.customerId)!);
    c.set('raw', raw);
    await next();
    if (faults.size && faults.take('drop', method, path) && c.env) c.env.dropped = true;
  };
}

/** The parameters of the body (form or JSON), or the 400 of the family. */
export function readParams(c: ServiceContext, family: ErrorFamily): ParsedBody | Response {
  const parsed = parseBody(c.get('raw'), c.req.header('content-type'));
  return typeof parsed === 'string' ? family.fail('bad_request', { description: BODY_PROBLEMS[parsed] }) : parsed;
}

/** The transaction named by the `id` path parameter: 400 when it is not a reference id, 404 when unknown or of another kind. */
export function findTransaction(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily, kind: Kind): Transaction | Response {
  const id = c.req.param('id') ?? '';
  if (!REFERENCE_ID.test(id)) return family.fail('invalid_reference', { detail: id });
  const tx = ctx.transactions.get(id, c.get('customer').customerId);
  return tx && tx.kind === kind ? tx : family.fail('unknown_reference');
}
