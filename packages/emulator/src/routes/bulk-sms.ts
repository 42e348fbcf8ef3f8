// Bulk SMS: POST /v1/verify/bulk_sms (service.md §9). One request, up to 1000
// recipients: one outbox message and one delivery callback per recipient; no status endpoint.
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { randomHex } from '../service/ids.js';
import { outcomeOf } from '../service/numbers.js';
import { reply } from '../service/respond.js';
import { smsFacts } from '../state/outbox.js';
import { statusOf } from '../service/status.js';
import { BULK_MAX_RECIPIENTS, validateBulkSms } from '../service/validate.js';
import { allow, readParams, type ServiceApp } from './service.js';


export function bulkSmsRoutes(app: ServiceApp, ctx: EmulatorContext, family: ErrorFamily): void {
  app.post('/bulk_sms', (c) => {
    const body = readParams(c, family);
    if (body instanceof Response) return body;
    const p = body.params;
    const checked = validateBulkSms(p, BULK_MAX_RECIPIENTS);
    if ('description' in checked) return family.param(c, checked);
    if (p.callback_url !== undefined && !/^https?:\/\/\S+$/.test(p.callback_url)) return family.param(c, { positive: 11004, negative: -10001, description: 'Invalid value for parameter callback_url.' });
    const customer = c.get('customer');
    const at = ctx.now();
    const referenceId = randomHex(16);
    const url = p.callback_url ?? customer.callbackUrl;
    const facts = smsFacts(p.template!);
    for (const [i, recipient] of checked.recipients.entries()) {
      ctx.outbox.add({ referenceId, customerId: customer.customerId, channel: 'sms', product: 'bulk_sms', phoneNumber: recipient.phoneNumber, text: p.template!, ...(p.sender_id ? { senderId: p.sender_id } : {}), ...(recipient.id !== null ? { recipientId: recipient.id } : {}), ...facts });
      if (!url) continue;
      // Deliveries are spread one millisecond apart, so that each recipient's update has its own time.
      const settledAt = at + ctx.settings.deliveryDelayMs + i;
      const payload = {
        status: statusOf(outcomeOf(recipient.phoneNumber).sms, settledAt),
        errors: [],
        sub_resource: 'bulk_sms',
        // The recipient's own id, else the request's session_id, else null (service.md §13).
        session_id: recipient.id ?? p.session_id ?? null,
        reference_id: referenceId,
      };
      ctx.schedule(settledAt, () => ctx.callbacks.send(url, payload, customer, referenceId, { product: 'bulk_sms', phoneNumber: recipient.phoneNumber }));
    }
    return reply(c, 200, { reference_id: referenceId, sub_resource: 'bulk_sms', status: ctx.status(293, at), errors: [] });
  });
  // Before GET /:id: GET /v1/verify/bulk_sms is a 405, not a status request for reference id "bulk_sms".
  allow(app, family, '/bulk_sms', 'POST');
}
