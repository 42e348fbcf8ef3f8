import { Hono } from 'hono';
import type { EmulatorContext } from '../context.js';
import { readBody } from '../body.js';
import { controlRefusal, REFUSALS } from '../control-guard.js';
import { FaultRuleError, InboundError } from '../errors.js';
import { sendInbound, type InboundSms } from '../inbound.js';
import type { FaultRule } from '../faults.js';
import { report } from '../logger.js';
import { json } from '../respond.js';
import type { EmulatorEnv } from '../types.js';
import { controlError, phoneQuery, QueryError } from './control-query.js';

export { controlError };

/** A fault rule is small; a larger body is refused before it is read. */
const MAX_CONTROL_BODY = 16 * 1024;

/**
 * Emulator-only routes, mounted at /_emulator: the phone's view (outbox), callback attempts,
 * faults and reset. Guarded: see control-guard.ts for who may call them.
 */
export function controlRoutes(ctx: EmulatorContext): Hono<{ Bindings: EmulatorEnv }> {
  const app = new Hono<{ Bindings: EmulatorEnv }>();
  // Before every control route and the 404: a foreign Host or Origin learns nothing.
  app.use('*', async (c, next) => {
    const refusal = controlRefusal(c.req.raw, c.env);
    if (refusal) return controlError(403, refusal, REFUSALS[refusal]);
    await next();
  });
  app.get('/outbox', (c) => {
    const phone = phoneQuery(c.req.query('phone_number'));
    return json(200, { messages: ctx.outbox.list(phone ? { phoneNumber: phone } : {}) });
  });
  app.get('/callbacks', () => json(200, { attempts: ctx.callbacks.attempts }));
  app.get('/faults', () => json(200, { faults: ctx.faults.list() }));
  app.post('/faults', async (c) => {
    const raw = await readBody(c.req.raw, MAX_CONTROL_BODY).catch(() => undefined);
    let rule: unknown;
    try {
      rule = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      return controlError(400, 'invalid_fault', 'The body must be one fault rule as JSON (at most 16 KiB), e.g. {"type":"status","status":503}.', { field: 'rule' });
    }
    try {
      ctx.faults.add(rule as FaultRule);
    } catch (error) {
      if (error instanceof FaultRuleError) return controlError(400, error.code, error.message, { field: error.field });
      throw error;
    }
    return json(201, { faults: ctx.faults.list() });
  });
  app.delete('/faults', () => {
    ctx.faults.clear();
    return json(200, { faults: [] });
  });
  // An inbound SMS (MO) from an end user: a signed mo_sms callback to the account's callback URL.
  app.post('/inbound', async (c) => {
    const raw = await readBody(c.req.raw, MAX_CONTROL_BODY).catch(() => undefined);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw));
    } catch {
      return controlError(400, 'invalid_inbound', 'The body must be JSON (at most 16 KiB): {"from":"15555550100","to":"15555559999","text":"STOP","customer_id"?:"...","callback_url"?:"..."}.', { field: 'body' });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return controlError(400, 'invalid_inbound', 'The body must be a JSON object: {"from","to","text"}.', { field: 'body' });
    const b = body as Record<string, unknown>;
    const message = { from: b.from, to: b.to, text: b.text, customerId: b.customer_id ?? b.customerId, callbackUrl: b.callback_url ?? b.callbackUrl } as InboundSms;
    try {
      const sent = sendInbound(message, ctx.customers, ctx.callbacks, ctx.now());
      return json(202, { reference_id: sent.referenceId, callback_url: sent.callbackUrl, payload: sent.payload });
    } catch (error) {
      if (error instanceof InboundError) return controlError(400, error.code, error.message, { field: error.field });
      throw error;
    }
  });
  app.post('/reset', () => {
    ctx.reset();
    return json(200, { reset: true });
  });
  app.all('*', (c) => controlError(404, 'not_found', `${c.req.method} ${c.req.path} is not a control route: GET /_emulator/outbox, GET /_emulator/callbacks, GET|POST|DELETE /_emulator/faults, POST /_emulator/inbound, POST /_emulator/reset.`));
  app.onError((error, c) => {
    if (error instanceof QueryError) return error.answer();
    report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
    return controlError(500, 'internal_error', 'The emulator failed on this control request; its log has the error.');
  });
  return app;
}
