import type { Hono } from 'hono';
import { honoApp } from '../hono-app.js';
import type { EmulatorContext } from '../state/context.js';
import { controlRefusal, REFUSALS } from './guard.js';
import { report } from '../logger.js';
import type { EmulatorEnv } from '../types.js';
import { controlActions } from './actions.js';
import { controlError, QueryError } from './query.js';
import { controlReads } from './reads.js';
import { eventStream } from './stream.js';

export { controlError };

/** Every control route, for the 404's list (the OpenAPI document has their details: GET /_emulator/openapi.json). */
export const CONTROL_ROUTES = [
  'GET /_emulator/journal',
  'GET /_emulator/outbox',
  'GET /_emulator/callbacks',
  'GET /_emulator/callbacks/{id}/raw',
  'POST /_emulator/callbacks/{id}/resend',
  'GET /_emulator/transactions',
  'GET /_emulator/transactions/{reference_id}',
  'POST /_emulator/transactions/{reference_id}/status',
  'GET /_emulator/clock',
  'POST /_emulator/clock/advance',
  'GET|POST|DELETE /_emulator/faults',
  'DELETE /_emulator/faults/{index}',
  'POST /_emulator/inbound',
  'POST /_emulator/reset',
  'GET|PUT /_emulator/snapshot',
  'GET|POST|PUT|DELETE /_emulator/numbers',
  'GET /_emulator/events',
  'GET /_emulator/openapi.json',
];

/**
 * Emulator-only routes, mounted at /_emulator: the journal, the phone's view (outbox), callback
 * attempts, transactions, the clock, faults, triggers (inbound SMS, re-send, final status, clock
 * advance), reset, the event stream and the OpenAPI document (`openApiDocument`: openapi/ is the
 * layer above). Guarded: see guard.ts.
 */
export function controlRoutes(ctx: EmulatorContext, openApiDocument: () => unknown): Hono<{ Bindings: EmulatorEnv }> {
  const app = honoApp<{ Bindings: EmulatorEnv }>();
  // Before every control route and the 404: a foreign Host or Origin learns nothing.
  app.use('*', async (c, next) => {
    const refusal = controlRefusal(c.req.raw, c.env, ctx.controlToken);
    if (refusal) return controlError(403, refusal, REFUSALS[refusal]);
    await next();
  });
  controlReads(app, ctx, openApiDocument);
  controlActions(app, ctx);
  app.get('/events', (c) => eventStream(ctx, c.req.raw));
  app.all('*', (c) => controlError(404, 'not_found', `${c.req.method} ${c.req.path} is not a control route: ${CONTROL_ROUTES.join(', ')}.`));
  app.onError((error, c) => {
    if (error instanceof QueryError) return error.answer();
    report(ctx.logger, 'error', `${c.req.method} ${c.req.path} failed; answered 500.`, { method: c.req.method, path: c.req.path, error });
    return controlError(500, 'internal_error', 'The emulator failed on this control request; its log has the error.');
  });
  return app;
}
