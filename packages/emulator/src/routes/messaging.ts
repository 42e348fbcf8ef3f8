import { reply } from '../service/respond.js';
import { smsFacts } from '../state/outbox.js';
import { statusNow } from '../state/store.js';
import { validateMessaging } from '../service/validate.js';
import { allow, findTransaction, REFERENCE_PARAM, type ProductModule, validParams } from './service.js';

/** SMS: POST /v1/messaging, GET /v1/messaging/{reference_id}. Positive codes in `status.code`. */
export const messaging: ProductModule = {
  path: '/v1/messaging',
  family: 'positive',
  routes(app, ctx, family) {
    app.post('/', (c) => {
      const p = validParams(c, family, validateMessaging);
      if (p instanceof Response) return p;
      const customer = c.get('customer');
      const facts = smsFacts(p.message!);
      const tx = ctx.transactions.create('sms', customer, p, { parts: facts.parts });
      ctx.outbox.add({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'sms', product: 'messaging', phoneNumber: tx.phoneNumber, text: p.message!, messageType: p.message_type!, ...(p.sender_id ? { senderId: p.sender_id } : {}), ...facts });
      return reply(c, 200, { reference_id: tx.referenceId, external_id: tx.externalId ?? null, status: statusNow(tx) });
    });
    app.get('/:id', (c) => {
      const tx = findTransaction(c, ctx, family, 'sms');
      if (tx instanceof Response) return tx;
      return reply(c, 200, { reference_id: tx.referenceId, external_id: tx.externalId ?? null, status: statusNow(tx), additional_info: { message_parts_count: tx.parts ?? 1 } });
    });
    allow(app, family, '/', 'POST');
    allow(app, family, `/${REFERENCE_PARAM}`, 'GET');
  },
};
