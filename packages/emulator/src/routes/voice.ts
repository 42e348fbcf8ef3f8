import { json } from '../respond.js';
import { statusOf } from '../status.js';
import type { Transaction } from '../store.js';
import { validateVoice } from '../validate.js';
import { allow, findTransaction, readParams, REFERENCE_PARAM, type ProductModule } from './service.js';

const voiceBody = (tx: Transaction) => ({
  reference_id: tx.referenceId,
  external_id: tx.externalId ?? null,
  status: statusOf(tx.status.code, tx.status.updatedAt),
  voice: { user_input: null, caller_id: tx.voice!.callerId },
});

/** Voice: POST /v1/voice, GET /v1/voice (recent calls), GET /v1/voice/{reference_id}. Positive codes. */
export const voice: ProductModule = {
  path: '/v1/voice',
  family: 'positive',
  routes(app, ctx, family) {
    /** The last 100 calls of each customer, newest last, for GET /v1/voice. */
    const recentCalls = new Map<string, string[]>();
    ctx.onReset(() => recentCalls.clear());

    app.post('/', (c) => {
      const body = readParams(c, family);
      if (body instanceof Response) return body;
      const p = body.params;
      const error = validateVoice(p);
      if (error) return family.param(error);
      const customer = c.get('customer');
      const tx = ctx.transactions.create('voice', customer, p, { voice: { callerId: p.caller_id ?? null } });
      const recent = recentCalls.get(customer.customerId) ?? [];
      recent.push(tx.referenceId);
      if (recent.length > 100) recent.shift();
      recentCalls.set(customer.customerId, recent);
      ctx.outbox.add({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'voice', product: 'voice', phoneNumber: tx.phoneNumber, text: p.message!, messageType: p.message_type! });
      return json(200, voiceBody(tx));
    });
    // The interface lists GET on /v1/voice; with no reference id it lists this customer's recent calls.
    app.get('/', (c) => {
      const id = c.get('customer').customerId;
      const calls = (recentCalls.get(id) ?? []).map((ref) => ctx.transactions.get(ref, id)).filter((tx) => tx !== undefined).reverse();
      return json(200, { calls: calls.map(voiceBody) });
    });
    app.get('/:id', (c) => {
      const tx = findTransaction(c, ctx, family, 'voice');
      return tx instanceof Response ? tx : json(200, voiceBody(tx));
    });
    allow(app, family, '/', 'POST, GET');
    allow(app, family, `/${REFERENCE_PARAM}`, 'GET');
  },
};
