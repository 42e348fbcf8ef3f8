import { verifyRequest } from '@x/auth';
import { honoApp } from '../hono-app.js';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { sleep } from '../abort.js';
import { markNotEmulated } from '../in-process.js';
import { report } from '../logger.js';
import { BODY_PROBLEMS, parseBody, readBody, type ParsedBody } from '../service/body.js';
import type { AccountSet, EmulatorContext } from '../state/context.js';
import type { ErrorFamily, FamilyName } from '../service/families.js';
import type { Fault } from '../state/faults.js';
import { note, notePhones, type JournalVariables } from '../control/request-record.js';
import type { Kind, Transaction } from '../state/store.js';
import type { Customer, EmulatorEnv } from '../types.js';
import { REFERENCE_ID, type ParamError, type Params } from '../service/validate.js';
import { headerOf } from '../control/headers.js';

/** Per request, set by the service middleware before a product route runs. */
export interface ServiceVariables extends JournalVariables {
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
 * its family for operations it does not know, and a logged 500 JSON answer in its family when a
 * route throws.
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

/** The Hono sub-app of a product: shared middleware, its routes, then 404; a 500 in its family when a route throws. */
export function buildProduct(ctx: EmulatorContext, product: ProductModule): ServiceApp {
  const family = ctx.family(product.family);
  const app = honoApp<ServiceEnv>();
  app.use('*', serviceMiddleware(ctx, family, product.accounts ?? 'rest', product.maxBodyBytes));
  product.routes(app, ctx, family);
  // Hono calls notFound only on the top-level app: a catch-all keeps unknown operations in this family.
  app.all('*', (c) => {
    markNotEmulated(c);
    return family.fail(c, 'not_found');
  });
  app.onError((error, c) => internalError(ctx, family, error, c));
  return app;
}

/** A route threw: logged, and answered 500 in the family of the app answering. */
export function internalError(ctx: EmulatorContext, family: ErrorFamily, error: Error, c: Context): Response {
  report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
  return family.fail(c, 'internal_error');
}

/** The 405 of a resource, with the methods it supports. */
export function allow(app: ServiceApp, family: ErrorFamily, path: string, methods: string): void {
  app.all(path, (c) => family.fail(c, 'method_not_allowed', { headers: { allow: methods } }));
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
    const request = c.req.raw;
    const latency = faults.take('latency', method, path);
    if (latency) {
      note(c, { fault: 'latency' });
      // A client that gives up meanwhile (its signal; over HTTP, its connection closing) abandons the request.
      if (!(await sleep(latency.ms, request.signal))) {
        note(c, { verdict: 'fault:latency' });
        return family.fail(c, 'unavailable', { description: 'the client gave up during a latency fault; the request was not processed' });
      }
    }
    const answered = faultAnswer(c, family, faults, method, path);
    if (answered) {
      note(c, { fault: answered.type, verdict: `fault:${answered.type}` });
      if (answered.type === 'reset' && c.env) {
        c.env.reset = true;
        c.env.dropped = true;
      }
      return answered.response;
    }

    let raw: Uint8Array | undefined;
    try {
      raw = await readBody(request, limit);
    } catch {
      return family.fail(c, 'bad_request', { description: 'the body could not be read' });
    }
    if (!raw) {
      // The rest of the body is left unread: the connection closes after this answer, so that no client sends its next request on it.
      const refused = family.fail(c, 'payload_too_large', { description: `at most ${limit} bytes` });
      refused.headers.set('connection', 'close');
      return refused;
    }

    const result = await verifyRequest({ method, url: c.env?.requestTarget ?? c.req.url, headers: request.headers, body: raw.length ? raw : undefined }, auth);
    if (!result.ok) {
      // The journal names the numbers of refused requests too ("why did my SMS to ... fail?").
      const parsed = raw.length ? parseBody(raw, headerOf(c, 'content-type')) : undefined;
      if (typeof parsed === 'object') notePhones(c, numbersOf(parsed, undefined));
      note(c, { verdict: result.reason, ...(result.customerId !== undefined ? { customerId: result.customerId } : {}), ...(result.stringToSign !== undefined ? { stringToSign: result.stringToSign } : {}) });
      return family.auth(c, result.reason, result.stringToSign);
    }
    note(c, { verdict: 'ok', customerId: result.customerId });
    // The rate fault counts per customer, so it runs once the customer is known.
    const limited = faults.limit(method, path, result.customerId, ctx.now());
    if (limited) {
      note(c, { fault: 'rate', verdict: 'fault:rate' });
      return family.fail(c, 'rate_limited', {
        headers: { 'retry-after': String(limited.retryAfterSeconds) },
        description: `more than ${limited.perSecond} requests a second from this account (rate fault)`,
      });
    }
    c.set('customer', customers.get(result.customerId)!);
    c.set('raw', raw);
    await next();
    if (faults.take('drop', method, path)) {
      note(c, { fault: 'drop', verdict: 'fault:drop' });
      if (c.env) c.env.dropped = true;
    }
  };
}

/** An HTML error page, as a proxy or load balancer in front of the service answers (not JSON). */
export function proxyErrorPage(status: number): string {
  const title = `${status} ${PROXY_TITLES[status] ?? 'Error'}`;
  return `<!DOCTYPE html>\n<html>\n<head><title>${title}</title></head>\n<body>\n<h1>${title}</h1>\n<p>The proxy in front of the service could not get an answer from it.</p>\n<hr><p>x-emulator (html fault)</p>\n</body>\n</html>\n`;
}

const PROXY_TITLES: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out' };

/** The answer of the first fault that answers instead of the service (reset, html, status, error), in that order; one rule per request. */
function faultAnswer(c: ServiceContext, family: ErrorFamily, faults: EmulatorContext['faults'], method: string, path: string): { type: Fault['type']; response: Response } | undefined {
  const retryAfter = (seconds: number | undefined): Record<string, string> => (seconds !== undefined ? { 'retry-after': String(seconds) } : {});
  if (faults.take('reset', method, path)) {
    return { type: 'reset', response: family.fail(c, 'unavailable', { description: 'the connection was reset before the request was read (reset fault); it was not processed' }) };
  }
  const html = faults.take('html', method, path);
  if (html) {
    const status = html.status ?? 502;
    return { type: 'html', response: new Response(proxyErrorPage(status), { status, headers: { 'content-type': 'text/html', ...retryAfter(html.retryAfterSeconds) } }) };
  }
  const status = faults.take('status', method, path);
  if (status) {
    return { type: 'status', response: family.fail(c, status.status === 429 ? 'rate_limited' : 'unavailable', { status: status.status, headers: retryAfter(status.retryAfterSeconds) }) };
  }
  const error = faults.take('error', method, path);
  if (error) return { type: 'error', response: family.injected(c, error.status, error.code, error.description, retryAfter(error.retryAfterSeconds)) };
  return undefined;
}

/** The parameters of the body (form or JSON), or the 400 of the family. */
export function readParams(c: ServiceContext, family: ErrorFamily): ParsedBody | Response {
  const parsed = parseBody(c.get('raw'), headerOf(c, 'content-type'));
  if (typeof parsed === 'string') return family.fail(c, 'bad_request', { description: BODY_PROBLEMS[parsed] });
  notePhones(c, numbersOf(parsed, c.req.param('phone')));
  return parsed;
}

/** The parameters of the body, a number in the path as `phone_number`, checked by `validate`; or the 400 of the family. */
export function validParams(c: ServiceContext, family: ErrorFamily, validate: (p: Params) => ParamError | undefined, fromPath?: string): Params | Response {
  const body = readParams(c, family);
  if (body instanceof Response) return body;
  if (fromPath !== undefined) body.params.phone_number = fromPath;
  const error = validate(body.params);
  return error ? family.param(c, error) : body.params;
}

/** The numbers a request is about, for the journal: the path's number, `phone_number`, a Verify API recipient, a bulk request's recipients. */
function numbersOf(body: ParsedBody, fromPath: string | undefined): string[] {
  const out: string[] = [];
  if (fromPath !== undefined) out.push(fromPath);
  if (body.params.phone_number !== undefined) out.push(body.params.phone_number);
  const recipient = body.object?.recipient as { phone_number?: unknown; email?: unknown } | undefined;
  if (typeof recipient?.phone_number === 'string') out.push(recipient.phone_number);
  if (typeof recipient?.email === 'string') out.push(recipient.email);
  if (body.params.recipients !== undefined) {
    for (const entry of body.params.recipients.split(',').slice(0, 1000)) out.push(entry.split(':')[0]!.trim());
  }
  return out.map((n) => n.slice(0, 128));
}

/** The transaction named by the `id` path parameter: 400 when it is not a reference id, 404 when unknown or of another kind. */
export function findTransaction(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily, kind: Kind): Transaction | Response {
  const id = c.req.param('id') ?? '';
  if (!REFERENCE_ID.test(id)) return family.fail(c, 'invalid_reference', { detail: id });
  const tx = ctx.transactions.get(id, c.get('customer').customerId);
  if (tx) {
    note(c, { referenceId: tx.referenceId });
    notePhones(c, [tx.phoneNumber]);
  }
  return tx && tx.kind === kind ? tx : family.fail(c, 'unknown_reference');
}
