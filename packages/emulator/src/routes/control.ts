import { Hono } from 'hono';
import type { EmulatorContext } from '../context.js';
import type { Faults } from '../faults.js';
import { report } from '../logger.js';
import { json } from '../respond.js';
import type { EmulatorEnv } from '../types.js';

/** The control family: `{ error: <what happened and what to do>, code, field? }`. */
export const controlError = (status: number, code: string, error: string, extra: Record<string, unknown> = {}) => json(status, { error, code, ...extra });

/**
 * Emulator-only routes, mounted at /_emulator: the phone's view (outbox), callback attempts,
 * faults and reset.
 */
export function controlRoutes(ctx: EmulatorContext): Hono<{ Bindings: EmulatorEnv }> {
  const app = new Hono<{ Bindings: EmulatorEnv }>();
  app.get('/outbox', (c) => {
    const phone = c.req.query('phone_number');
    return json(200, { messages: ctx.outbox.list(phone ? { phoneNumber: phone } : {}) });
  });
  app.get('/callbacks', () => json(200, { attempts: ctx.callbacks.attempts }));
  app.get('/faults', () => json(200, { faults: ctx.faults.list() }));
  app.post('/faults', async (c) => {
    try {
      const rule = (await c.req.json()) as Parameters<Faults['add']>[0];
      if (!['latency', 'status', 'drop'].includes(rule?.type)) throw new Error('type must be latency, status or drop');
      ctx.faults.add(rule);
      return json(201, { faults: ctx.faults.list() });
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : 'invalid fault' });
    }
  });
  app.delete('/faults', () => {
    ctx.faults.clear();
    return json(200, { faults: [] });
  });
  app.post('/reset', () => {
    ctx.reset();
    return json(200, { reset: true });
  });
  app.all('*', (c) => controlError(404, 'not_found', `${c.req.method} ${c.req.path} is not a control route: GET /_emulator/outbox, GET /_emulator/callbacks, GET|POST|DELETE /_emulator/faults, POST /_emulator/reset.`));
  app.onError((error, c) => {
    report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
    return controlError(500, 'internal_error', 'The emulator failed on this control request; its log has the error.');
  });
  return app;
}
