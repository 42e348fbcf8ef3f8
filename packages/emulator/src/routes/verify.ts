import { randomDigits } from '../service/ids.js';
import { reply } from '../service/respond.js';
import { smsFacts } from '../state/outbox.js';
import { statusNow } from '../state/store.js';
import { ENTERED_CODE, validateVerify } from '../service/validate.js';
import { bulkSmsRoutes } from './bulk-sms.js';
import { allow, findTransaction, REFERENCE_PARAM, type ProductModule, validParams } from './service.js';
import { completionRoutes } from './verify-completion.js';
import { voiceVerifyRoutes } from './verify-call.js';
import { render, TEMPLATES, verifyStatusBody } from './verify-shared.js';

/**
 * The /v1/verify products (negative codes in `errors[]`): SMS Verify (POST /sms), Voice Verify
 * (POST /call, verify-call.ts), status and code check of both (GET /{reference_id}?verify_code=),
 * completion (PUT /completion/{id}, verify-completion.ts) and Bulk SMS (POST /bulk_sms, bulk-sms.ts).
 */
export const verify: ProductModule = {
  path: '/v1/verify',
  family: 'negative',
  routes(app, ctx, family) {
    app.post('/sms', (c) => {
      const p = validParams(c, family, validateVerify);
      if (p instanceof Response) return p;
      const customer = c.get('customer');
      const code = p.verify_code ?? randomDigits(7);
      const template = p.template ?? TEMPLATES[p.language ?? 'en-US'] ?? TEMPLATES['en-US']!;
      const text = render(template, code);
      const facts = smsFacts(text);
      const tx = ctx.transactions.create('verify', customer, p, { verify: { channel: 'sms', code, state: 'UNKNOWN', entered: '', attempts: 0 }, parts: facts.parts });
      ctx.outbox.add({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'sms', product: 'verify', phoneNumber: tx.phoneNumber, text, code, ...(p.sender_id ? { senderId: p.sender_id } : {}), ...facts });
      return reply(c, 200, {
        reference_id: tx.referenceId,
        resource_uri: `/v1/verify/${tx.referenceId}`,
        sub_resource: 'sms',
        errors: [],
        status: statusNow(tx),
        verify: { code_state: 'UNKNOWN', code_entered: '' },
      });
    });
    // Before GET /:id, so that GET /v1/verify/sms is not read as a status request for reference id "sms".
    allow(app, family, '/sms', 'POST');
    voiceVerifyRoutes(app, ctx, family);
    bulkSmsRoutes(app, ctx, family);
    completionRoutes(app, ctx, family);

    app.get('/:id', (c) => {
      const tx = findTransaction(c, ctx, family, 'verify');
      if (tx instanceof Response) return tx;
      const entered = c.req.query('verify_code');
      const v = tx.verify!;
      if (entered !== undefined && v.state !== 'VALID') {
        if (!ENTERED_CODE.test(entered)) return family.param(c, { positive: 11000, negative: -10001, description: `Invalid Request: verify_code Parameter: ${entered.slice(0, 16)}` }, { reference_id: tx.referenceId });
        v.attempts++;
        v.entered = entered;
        if (ctx.now() > tx.createdAt + ctx.settings.verifyExpiryMs) v.state = 'EXPIRED';
        else if (v.attempts > ctx.settings.verifyMaxAttempts) v.state = 'MAX_ATTEMPTS_EXCEEDED';
        else v.state = entered === v.code ? 'VALID' : 'INVALID';
      }
      return reply(c, 200, verifyStatusBody(tx));
    });
    allow(app, family, `/${REFERENCE_PARAM}`, 'GET');
  },
};
