// Verify completion: PUT /v1/verify/completion/{reference_id} (service.md §5.3). In the
// own-code flow the customer compared the codes and reports the success.
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { reply } from '../service/respond.js';
import { REFERENCE_ID } from '../service/validate.js';
import { allow, REFERENCE_PARAM, type ServiceApp } from './service.js';

export function completionRoutes(app: ServiceApp, ctx: EmulatorContext, family: ErrorFamily): void {
  // Any body or none: the client sends an empty form, the Ruby SDK no body, the Node SDK optional fields.
  app.put('/completion/:id', (c) => {
    const id = c.req.param('id');
    if (!REFERENCE_ID.test(id)) return family.fail(c, 'invalid_reference', { detail: id });
    const customer = c.get('customer');
    const tx = ctx.transactions.get(id, customer.customerId);
    if (!tx) return family.fail(c, 'unknown_reference');
    // An SMS or a voice call that is not a verification (reference: -30013, HTTP 401).
    if (tx.kind !== 'verify') return family.error(c, 401, -30013, undefined, { reference_id: tx.referenceId });
    const v = tx.verify!;
    // Recorded once; repeating it (a retry) answers the same. The customer vouches for the code.
    if (v.completedAt === undefined) {
      v.completedAt = ctx.now();
      v.state = 'VALID';
    }
    return reply(c, 200, {
      reference_id: tx.referenceId,
      resource_uri: `/v1/verify/${tx.referenceId}`,
      sub_resource: v.channel,
      errors: [],
      status: ctx.status(1900, v.completedAt),
    });
  });
  allow(app, family, `/completion/${REFERENCE_PARAM}`, 'PUT');
}
