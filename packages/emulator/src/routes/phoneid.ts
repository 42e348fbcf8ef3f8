import { randomHex } from '../service/ids.js';
import { phoneIdOf } from '../service/phoneid.js';
import { reply } from '../service/respond.js';
import { validatePhoneId } from '../service/validate.js';
import { markNotEmulated } from '../in-process.js';
import { allow, readParams, type ProductModule, type ServiceContext } from './service.js';
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { PHONE_TYPES, type PhoneIdStep } from '../state/scripts.js';

/** PhoneID: POST /v1/phoneid/{phone_number} and POST /v1/phoneid (form, or JSON with `addons` and `consent`). Positive codes. */
export const phoneid: ProductModule = {
  path: '/v1/phoneid',
  family: 'positive',
  routes(app, ctx, family) {
    app.post('/:phone', (c) => {
      let phone: string;
      try {
        phone = decodeURIComponent(c.req.param('phone'));
      } catch {
        return family.param(c, { positive: 11000, negative: -10001, description: 'Invalid value for parameter phone_number.' });
      }
      return lookup(c, ctx, family, phone);
    });
    app.post('/', (c) => lookup(c, ctx, family, undefined));
    allow(app, family, '/', 'POST');
    // Only a number: other words (e.g. a PhoneID variant that is not emulated) are unknown operations.
    allow(app, family, '/:phone{[+0-9]+}', 'POST');
    // Unknown GET operations (legacy PhoneID GETs such as /contact/{n}, /score/{n}) answer in the
    // negative family, as the GET variants beside them do.
    const legacy = ctx.family('negative');
    app.get('*', (c) => {
      markNotEmulated(c);
      return legacy.fail(c, 'not_found');
    });
  },
};

/** A number script's next PhoneID step, if any: its `phone_type` replaces the answer's; returns its risk score for Score. */
export function scriptedPhoneType(ctx: EmulatorContext, phoneNumber: string, answer: Record<string, unknown>): number | undefined {
  const step = ctx.scripts.size ? (ctx.scripts.next(phoneNumber, 'phoneid') as PhoneIdStep | undefined) : undefined;
  if (step?.phoneid.type !== undefined) answer.phone_type = { code: PHONE_TYPES[step.phoneid.type], description: step.phoneid.type };
  return step?.phoneid.risk;
}

function lookup(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily, fromPath: string | undefined): Response {
  const body = readParams(c, family);
  if (body instanceof Response) return body;
  const p = body.params;
  if (fromPath !== undefined) p.phone_number = fromPath;
  const error = validatePhoneId(p);
  if (error) return family.param(c, error);
  const addons = body.object?.addons;
  if (addons !== undefined && addons !== null && (typeof addons !== 'object' || Array.isArray(addons))) {
    return family.param(c, { positive: 11000, negative: -10001, description: 'Invalid value for parameter addons: an object such as {"contact":{}}.' });
  }
  const now = ctx.now();
  const { body: answer, partial } = phoneIdOf(p.phone_number!, { addons: addons ?? undefined, consent: body.object?.consent, now });
  scriptedPhoneType(ctx, p.phone_number!, answer);
  return reply(c, 200, { reference_id: randomHex(16), external_id: p.external_id ?? null, status: ctx.status(partial ? 301 : 300, now), ...answer });
}
