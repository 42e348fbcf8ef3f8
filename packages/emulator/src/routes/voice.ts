import { reply } from '../service/respond.js';
import { statusNow } from '../state/store.js';
import type { Transaction } from '../state/store.js';
import { validateVoice } from '../service/validate.js';
import { allow, findTransaction, REFERENCE_PARAM, type ProductModule, validParams } from './service.js';

const voiceBody = (tx: Transaction) => ({
  reference_id: tx.referenceId,
  external_id: tx.externalId ?? null,
  status: statusNow(tx),
  voice: { user_input: null, caller_id: tx.voice!.callerId },
});

/** Calls GET /v1/voice lists, per account. */
const RECENT_CALLS = 100;

/** Voice: POST /v1/voice, GET /v1/voice (recent calls), GET /v1/voice/{reference_id}. Positive codes. */
export const voice: ProductModule = {
  path: '/v1/voice',
  family: 'positive',
  routes(app, ctx, family) {
    /** The last 100 calls of each customer, oldest first, for GET /v1/voice. */
    const recentCalls = new Map<string, string[]>();
    ctx.onReset(() => recentCalls.clear());

    app.post('/', (c) => {
      const p = validParams(c, family, validateVoice);
      if (p instanceof Response) return p;
      const customer = c.get('customer');
      const tx = ctx.transactions.create('voice', customer, p, { voice: { callerId: p.caller_id ?? null } });
      let recent = recentCalls.get(customer.customerId);
      if (!recent) recentCalls.set(customer.customerId, (recent = []));
      recent.push(tx.referenceId);
      if (recent.length > RECENT_CALLS) recent.shift();
      ctx.outbox.add({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'voice', product: 'voice', phoneNumber: tx.phoneNumber, text: p.message!, messageType: p.message_type! });
      return reply(c, 200, voiceBody(tx));
    });
    // The interface lists GET on /v1/voice; with no reference id it lists this customer's recent calls.
    app.get('/', (c) => {
      const id = c.get('customer').customerId;
      const calls: ReturnType<typeof voiceBody>[] = [];
      for (const ref of [...(recentCalls.get(id) ?? [])].reverse()) {
        const tx = ctx.transactions.get(ref, id);
        if (tx) calls.push(voiceBody(tx));
      }
      return reply(c, 200, { calls });
    });
    app.get('/:id', (c) => {
      const tx = findTransaction(c, ctx, family, 'voice');
      return tx instanceof Response ? tx : reply(c, 200, voiceBody(tx));
    });
    allow(app, family, '/', 'POST, GET');
    allow(app, family, `/${REFERENCE_PARAM}`, 'GET');
  },
};
