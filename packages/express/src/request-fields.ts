import type { CallbackPayload } from '@x/webhooks';
import type { Request } from 'express';

/** What the verifiers give the handler on `req`. */
export interface RequestFields {
  callback?: CallbackPayload;
  callbackHeader?: 'authorization' | 'x-ts-authorization';
  customerId?: string;
}

const NAMES = ['callback', 'callbackHeader', 'customerId'] as const;

// Each request's fields, beside the request rather than on it (see setRequestFields).
const fieldsOf = new WeakMap<object, RequestFields>();
// The request prototypes whose accessors are defined.
const prepared = new WeakSet<object>();

function fields(req: object): RequestFields {
  let own = fieldsOf.get(req);
  if (!own) fieldsOf.set(req, (own = {}));
  return own;
}

/** Whether req is an Express app's request whose base prototype (express.request) has the accessors: defined there once. */
function hasAccessors(req: Request): boolean {
  // Express sets each request's prototype to its app's `app.request`, an object with an own `app`
  // made from `express.request` (Express 4 and 5).
  const appRequest: unknown = Object.getPrototypeOf(req);
  if (typeof appRequest !== 'object' || appRequest === null || !Object.hasOwn(appRequest, 'app')) return false;
  const base: unknown = Object.getPrototypeOf(appRequest);
  if (typeof base !== 'object' || base === null) return false;
  if (prepared.has(base)) return true;
  if (NAMES.some((name) => name in base)) return false; // someone else's field of that name: leave it alone
  for (const name of NAMES) {
    Object.defineProperty(base, name, {
      configurable: true,
      get(this: object) {
        return fieldsOf.get(this)?.[name];
      },
      set(this: object, value: never) {
        fields(this)[name] = value;
      },
    });
  }
  prepared.add(base);
  return true;
}

/**
 * Sets `req.callback`, `req.callbackHeader` or `req.customerId`.
 *
 * Express swaps the prototype of each request (`Object.setPrototypeOf(req, app.request)`), after
 * which V8 caches no property transition for that object: each property a middleware adds to the
 * request builds a new hidden class, about 25,000 instructions, 3% of a callback route
 * (BENCHMARKS.md, "Express: what a property added to the request costs"). So on an Express
 * request these fields are accessors on `express.request`, the prototype every app's request
 * inherits from, defined once (as Express defines `req.ip` and `req.protocol` there), over a
 * WeakMap entry per request: reading and assigning `req.callback` work as for an own property,
 * in every app and sub-app, and the entry goes with the request. Elsewhere (the `router` package
 * alone, a plain object in a unit test) they are own properties.
 */
export function setRequestFields(req: Request, values: RequestFields): void {
  // An own field set before the accessors existed would hide them: then own properties throughout.
  if (hasAccessors(req) && !NAMES.some((name) => Object.hasOwn(req, name))) Object.assign(fields(req), values);
  else Object.assign(req, values);
}
