import type { Context, Hono } from 'hono';
import { honoApp } from '../hono-app.js';
import { STATUS_TEXT } from '../service/codes.js';
import { controlRefusal, REFUSALS } from '../control/guard.js';
import { ERROR_FAULT_STATUS, FAULT_STATUSES, HTML_FAULT_STATUSES } from '../state/faults.js';
import { json } from '../service/respond.js';
import type { EmulatorEnv } from '../types.js';
import { INSPECTOR_PATH } from '../paths.js';
import { inspectorFiles } from './files.js';
import { inspectorPage } from './page.js';

/**
 * Script, styles and data only from this origin; no inline script or style, no frames, no forms
 * posted elsewhere, no referrer. Every value the page shows is set as text (textContent), never as
 * markup, so an SMS body or a request path cannot become script.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The inspector: one HTML page (no framework, no CDN, nothing for users to build) with an ES module
 * and a style sheet compiled when the package is built (files.ts), served by the emulator itself.
 * The page holds no state: it reads and changes the emulator through the control routes
 * (/_emulator/*), live through GET /_emulator/events.
 *
 * Guarded like the control routes (control/guard.ts), with one difference: when the emulator
 * requires a control token, the page itself (static, no data in it) is served without one, since a
 * browser cannot send a Bearer header when it opens a URL; the page asks for the token (or reads it
 * from `#token=...` in its address, which is never sent to the server) and sends it with every call.
 */
export function inspectorRoutes(controlToken?: string): Hono<{ Bindings: EmulatorEnv }> {
  const app = honoApp<{ Bindings: EmulatorEnv }>();
  const { script, style } = inspectorFiles();
  const html = inspectorPage({ statusCodes: STATUS_TEXT, faultStatuses: { status: FAULT_STATUSES, html: HTML_FAULT_STATUSES, error: ERROR_FAULT_STATUS }, assets: INSPECTOR_PATH });
  const guarded = (c: Context<{ Bindings: EmulatorEnv }>, body: string, type: string) => {
    const refusal = controlRefusal(c.req.raw, c.env, controlToken);
    if (refusal && refusal !== 'token_required' && refusal !== 'invalid_token') return json(403, { error: REFUSALS[refusal], code: refusal });
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers: { 'content-type': type, ...SECURITY_HEADERS } });
  };
  const page = (c: Context<{ Bindings: EmulatorEnv }>) => guarded(c, html, 'text/html; charset=utf-8');
  app.get('/', page);
  app.get(INSPECTOR_PATH, page);
  app.get(`${INSPECTOR_PATH}/app.js`, (c) => guarded(c, script, 'text/javascript; charset=utf-8'));
  app.get(`${INSPECTOR_PATH}/app.css`, (c) => guarded(c, style, 'text/css; charset=utf-8'));
  return app;
}
