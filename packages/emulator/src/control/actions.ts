// The control routes that act: triggers (inbound SMS, callback re-send, final status, clock
// advance), fault rules, reset.
import type { Context, Hono } from 'hono';
import { readBody } from '../service/body.js';
import { viewOf } from '../state/callbacks.js';
import type { EmulatorContext } from '../state/context.js';
import { EmulatorError, FaultRuleError, InboundError, ShapeError } from '../errors.js';
import type { FaultRule } from '../state/faults.js';
import { sendInbound, type InboundSms } from '../state/inbound.js';
import { json } from '../service/respond.js';
import type { EmulatorEnv } from '../types.js';
import { controlError } from './query.js';
import { restoreSnapshot, takeSnapshot } from '../state/snapshot.js';
import { DEFAULT_NUMBER_RULES, parseNumberScripts, type NumberScript } from '../state/scripts.js';
import { idParam, unknownCallback, unknownTransaction } from './reads.js';

/** A control body is small; a larger one is refused before it is read. */
const MAX_CONTROL_BODY = 16 * 1024;
/** A saved state can be large (SNAPSHOT_LIMITS). */
const MAX_SNAPSHOT_BODY = 64 * 1024 * 1024;

/** The JSON body of a control request (at most `limit` bytes), or the 400 `refused` builds. */
async function readJson(c: Context<{ Bindings: EmulatorEnv }>, limit: number, refused: () => Response): Promise<unknown> {
  const raw = await readBody(c.req.raw, limit).catch(() => undefined);
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return refused();
  }
}

/** The 400 of a value refused field by field (a fault rule, an inbound SMS, a number script, a saved state), or the error thrown on. */
function refusal(error: unknown): Response {
  if (error instanceof FaultRuleError || error instanceof ShapeError || error instanceof InboundError) return controlError(400, error.code, error.message, { field: error.field });
  throw error;
}

/** The JSON object of a control request, or the 400 that says what to send. */
async function readObject(c: Context<{ Bindings: EmulatorEnv }>, code: string, example: string): Promise<Record<string, unknown> | Response> {
  const body = await readJson(c, MAX_CONTROL_BODY, () => controlError(400, code, `The body must be JSON (at most 16 KiB): ${example}.`, { field: 'body' }));
  if (body instanceof Response) return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return controlError(400, code, `The body must be a JSON object: ${example}.`, { field: 'body' });
  return body as Record<string, unknown>;
}

export function controlActions(app: Hono<{ Bindings: EmulatorEnv }>, ctx: EmulatorContext): void {
  app.post('/faults', async (c) => {
    const rule = await readJson(c, MAX_CONTROL_BODY, () => controlError(400, 'invalid_fault', 'The body must be one fault rule as JSON (at most 16 KiB), e.g. {"type":"status","status":503}.', { field: 'rule' }));
    if (rule instanceof Response) return rule;
    try {
      ctx.faults.add(rule as FaultRule);
    } catch (error) {
      return refusal(error);
    }
    return json(201, { faults: ctx.faults.list() });
  });
  app.delete('/faults', () => {
    ctx.faults.clear();
    return json(200, { faults: [] });
  });
  app.delete('/faults/:index', (c) => {
    const text = c.req.param('index');
    const index = /^\d{1,9}$/.test(text) ? Number(text) : -1;
    if (!ctx.faults.remove(index)) {
      return controlError(404, 'unknown_fault', `There is no fault rule at index ${JSON.stringify(text.slice(0, 20))}: GET /_emulator/faults lists them in order, the first at 0 (${ctx.faults.size} now).`, { field: 'index' });
    }
    return json(200, { faults: ctx.faults.list() });
  });

  // An inbound SMS (MO) from an end user: a signed mo_sms callback to the account's callback URL.
  app.post('/inbound', async (c) => {
    const body = await readObject(c, 'invalid_inbound', '{"from":"15555550100","to":"15555559999","text":"STOP","customer_id"?:"...","callback_url"?:"..."}');
    if (body instanceof Response) return body;
    const message = { from: body.from, to: body.to, text: body.text, customerId: body.customer_id ?? body.customerId, callbackUrl: body.callback_url ?? body.callbackUrl } as InboundSms;
    try {
      const sent = sendInbound(message, ctx.customers, ctx.callbacks, ctx.now());
      return json(202, { reference_id: sent.referenceId, callback_url: sent.callbackUrl, payload: sent.payload });
    } catch (error) {
      return refusal(error);
    }
  });

  // The same signed body to the same URL, as a new attempt; answered when the receiver answered.
  app.post('/callbacks/:id/resend', async (c) => {
    const id = idParam(c.req.param('id'));
    if (id === undefined || !ctx.callbacks.find(id)) return unknownCallback(c.req.param('id'));
    const attempt = await ctx.callbacks.resend(id);
    return json(202, { attempt: viewOf(attempt) });
  });

  app.post('/transactions/:id/status', async (c) => {
    const body = await readObject(c, 'invalid_status', '{"code":207}');
    if (body instanceof Response) return body;
    try {
      return json(200, { transaction: ctx.transactions.view(ctx.transactions.setStatus(c.req.param('id'), body.code)) });
    } catch (error) {
      if (error instanceof EmulatorError && error.code === 'unknown_transaction') return unknownTransaction(c.req.param('id'));
      if (error instanceof EmulatorError && error.code === 'invalid_status') return controlError(400, 'invalid_status', error.message, { field: 'code' });
      throw error;
    }
  });

  app.post('/clock/advance', async (c) => {
    const body = await readObject(c, 'invalid_advance', '{"ms":600000}');
    if (body instanceof Response) return body;
    try {
      const now = await ctx.advance(body.ms as number);
      return json(200, { now, offsetMs: ctx.clock.offsetMs });
    } catch (error) {
      if (error instanceof EmulatorError && error.code === 'invalid_advance') return controlError(400, 'invalid_advance', error.message, { field: 'ms' });
      throw error;
    }
  });

  // Number scripts: the list (and the default rules), one added, all replaced, all removed.
  const scriptAnswer = (status: number) => json(status, { numbers: ctx.scripts.list(), defaults: DEFAULT_NUMBER_RULES });
  app.get('/numbers', () => scriptAnswer(200));
  app.post('/numbers', async (c) => {
    const body = await readObject(c, 'invalid_script', '{"number":"15555550100","steps":[{"sms":"undeliverable"},{"call":"answered"}]}');
    if (body instanceof Response) return body;
    try {
      ctx.scripts.add(body as unknown as NumberScript);
    } catch (error) {
      return refusal(error);
    }
    return scriptAnswer(201);
  });
  app.put('/numbers', async (c) => {
    const body = await readObject(c, 'invalid_script', '{"numbers":[{"prefix":"1555","steps":[{"sms":"delivered","delayMs":5000}]}]}');
    if (body instanceof Response) return body;
    try {
      ctx.scripts.set(parseNumberScripts(body.numbers));
    } catch (error) {
      return refusal(error);
    }
    return scriptAnswer(200);
  });
  app.delete('/numbers', () => {
    ctx.scripts.clear();
    return scriptAnswer(200);
  });

  app.get('/snapshot', () => json(200, takeSnapshot(ctx)));
  app.put('/snapshot', async (c) => {
    const body = await readJson(c, MAX_SNAPSHOT_BODY, () => controlError(400, 'invalid_state', `The body must be a saved state as JSON (at most ${MAX_SNAPSHOT_BODY / 1024 / 1024} MiB), as GET /_emulator/snapshot answers.`, { field: 'state' }));
    if (body instanceof Response) return body;
    try {
      const restored = restoreSnapshot(ctx, body);
      return json(200, { restored: { transactions: restored.transactions.length, outbox: restored.outbox.length, callbacks: restored.callbacks.length, journal: restored.journal.length } });
    } catch (error) {
      return refusal(error);
    }
  });

  app.post('/reset', () => {
    ctx.reset();
    return json(200, { reset: true });
  });
}
