// Risk of a number: the legacy Score (POST /v1/score/{phone_number}, service.md §7.1)
// on the REST host, and Intelligence Cloud (POST /intelligence/phone, service.md §7.2) on its own host with
// its own accounts. Both: form or JSON, `account_lifecycle_event` required, positive codes.
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { randomHex } from '../service/ids.js';
import { phoneIdOf } from '../service/phoneid.js';
import { reply } from '../service/respond.js';
import { riskOf } from '../service/risk.js';
import { validateEmailRisk, validateRisk } from '../service/validate.js';
import { assessEmail } from '../service/email.js';
import { allow, type ProductModule, type ServiceContext, validParams } from './service.js';
import { scriptedPhoneType } from './phoneid.js';

function assess(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily, fromPath: string | undefined): Response {
  const p = validParams(c, family, validateRisk, fromPath);
  if (p instanceof Response) return p;
  const now = ctx.now();
  const { body: phone, partial } = phoneIdOf(p.phone_number!, { now });
  const risk = scriptedPhoneType(ctx, p.phone_number!, phone);
  return reply(c, 200, { reference_id: randomHex(16), external_id: p.external_id ?? null, status: ctx.status(partial ? 301 : 300, now), ...phone, risk: riskOf(p.phone_number!, risk) });
}

/** POST /v1/score/{phone_number}: PhoneID's answer plus `risk` { level, recommendation, score }. */
export const score: ProductModule = {
  path: '/v1/score',
  family: 'positive',
  routes(app, ctx, family) {
    app.post('/:phone', (c) => assess(c, ctx, family, c.req.param('phone')));
    allow(app, family, '/:phone{[+0-9]+}', 'POST');
  },
};

/** POST /intelligence/email (service.md §7.3): the address's details and risk. */
function assessEmailAddress(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily): Response {
  const p = validParams(c, family, validateEmailRisk);
  if (p instanceof Response) return p;
  return reply(c, 200, { reference_id: randomHex(16), external_id: p.external_id ?? null, status: ctx.status(300, ctx.now()), ...assessEmail(p.email_address!) });
}

/**
 * POST /intelligence/phone (the official SDKs: a form, signed) and POST /intelligence (the
 * getting-started page: JSON, Basic): both accepted, same answer; POST /intelligence/email (the
 * official Node client 5.2: a form, Basic; signed is accepted too). Accounts: `products.intelligence`.
 */
export const intelligence: ProductModule = {
  path: '/intelligence',
  family: 'positive',
  accounts: 'intelligence',
  routes(app, ctx, family) {
    app.post('/phone', (c) => assess(c, ctx, family, undefined));
    app.post('/', (c) => assess(c, ctx, family, undefined));
    app.post('/email', (c) => assessEmailAddress(c, ctx, family));
    allow(app, family, '/phone', 'POST');
    allow(app, family, '/email', 'POST');
    allow(app, family, '/', 'POST');
  },
};
