// The journal's middleware: wraps every request the app answers and records it when it is done.
import type { MiddlewareHandler } from 'hono';
import type { EmulatorContext } from '../state/context.js';
import type { JournalEntry } from '../state/journal.js';
import { schemeOf, type JournalVariables, type RequestDraft } from './request-record.js';
import type { EmulatorEnv } from '../types.js';
import { isControlPath } from '../paths.js';
import { headerOf } from './headers.js';

/**
 * Reads of the control routes (and the inspector page) are not journaled: the inspector reads
 * often, and its reads would crowd out the requests it shows. Control actions are.
 */
const isControlRead = (method: string, path: string) => (method === 'GET' || method === 'HEAD') && (path === '/' || isControlPath(path));

export function journalMiddleware(ctx: EmulatorContext): MiddlewareHandler<{ Bindings: EmulatorEnv; Variables: JournalVariables }> {
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (isControlRead(method, path)) return next();
    const started = performance.now();
    const at = ctx.now();
    const draft: RequestDraft = {};
    c.set('journal', draft);
    await next();
    const response = c.res;
    const facts = draft.answer;
    const url = c.req.url;
    const q = url.indexOf('?');
    const control = isControlPath(path);
    const entry: JournalEntry = {
      seq: 0, // numbered by the journal
      at,
      method,
      path,
      scheme: schemeOf(headerOf(c, 'authorization')),
      verdict: draft.verdict ?? (control ? 'control' : 'none'),
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (q >= 0 && q < url.length - 1) entry.query = url.slice(q + 1);
    if (draft.customerId !== undefined) entry.customerId = draft.customerId;
    if (draft.stringToSign !== undefined) entry.stringToSign = { ours: draft.stringToSign };
    const serviceCode = control ? undefined : facts?.serviceCode;
    if (serviceCode !== undefined) entry.serviceCode = serviceCode;
    const referenceId = facts?.referenceId ?? draft.referenceId;
    if (referenceId !== undefined && !control) entry.referenceId = referenceId;
    if (draft.phoneNumbers?.length) entry.phoneNumbers = draft.phoneNumbers;
    if (draft.fault !== undefined) entry.fault = draft.fault;
    const recorded = ctx.journal.add(entry);
    ctx.events.emit('journal', () => recorded);
  };
}
