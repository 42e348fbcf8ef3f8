// The control routes that read: journal, outbox, callbacks, transactions, faults, clock, the OpenAPI
// document (built by openapi/, above this layer, and handed in by createEmulator).
import type { Hono } from 'hono';
import type { EmulatorContext } from '../state/context.js';
import { viewOf } from '../state/callbacks.js';
import { JOURNAL_DEFAULT_LIMIT, JOURNAL_MAX_LIMIT, type JournalFilter, type StatusClass } from '../state/journal.js';
import { OUTBOX_CHANNELS } from '../state/outbox.js';
import { json } from '../service/respond.js';
import type { Kind } from '../state/store.js';
import type { EmulatorEnv } from '../types.js';
import { controlError, intQuery, oneOfQuery, phoneQuery, QueryError } from './query.js';

const KINDS: readonly Kind[] = ['sms', 'verify', 'voice'];
const STATUS_CLASSES: readonly StatusClass[] = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The journal's query: every parameter checked. */
function journalFilter(query: (name: string) => string | undefined): JournalFilter {
  const filter: JournalFilter = {};
  const method = query('method');
  if (method) {
    if (!/^[A-Za-z]{1,16}$/.test(method)) throw new QueryError('method', 'method must be an HTTP method such as POST.');
    filter.method = method;
  }
  const path = query('path');
  if (path) {
    if (!/^\/[\x21-\x7e]{0,1023}$/.test(path)) throw new QueryError('path', 'path must be a path prefix starting with "/", such as /v1/verify.');
    filter.path = path;
  }
  const status = query('status');
  if (status) filter.status = STATUS_CLASSES.includes(status as StatusClass) ? (status as StatusClass) : intQuery(status, 'status', 100, 599)!;
  const verdict = query('verdict');
  if (verdict) {
    if (!/^[a-z_:]{1,64}$/.test(verdict)) throw new QueryError('verdict', 'verdict must be ok, a reason such as signature_mismatch, control, none, fault, or fault:<type>.');
    filter.verdict = verdict;
  }
  const phone = phoneQuery(query('phone_number'));
  if (phone) filter.phoneNumber = phone;
  const reference = query('reference_id');
  if (reference) filter.referenceId = reference;
  const customer = query('customer_id');
  if (customer) filter.customerId = customer;
  const since = intQuery(query('since'), 'since', 0, Number.MAX_SAFE_INTEGER);
  if (since !== undefined) filter.since = since;
  filter.limit = intQuery(query('limit'), 'limit', 1, JOURNAL_MAX_LIMIT) ?? JOURNAL_DEFAULT_LIMIT;
  return filter;
}

/** A path parameter that must be a whole number from 1 (a callback attempt's id). */
export function idParam(value: string | undefined): number | undefined {
  return value !== undefined && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : undefined;
}

export function controlReads(app: Hono<{ Bindings: EmulatorEnv }>, ctx: EmulatorContext, openApiDocument: () => unknown): void {
  app.get('/journal', (c) => json(200, { entries: ctx.journal.list(journalFilter((name) => c.req.query(name))) }));

  app.get('/outbox', (c) => {
    const phone = phoneQuery(c.req.query('phone_number'));
    const channel = oneOfQuery(c.req.query('channel'), 'channel', OUTBOX_CHANNELS);
    const customerId = c.req.query('customer_id') || undefined;
    return json(200, { messages: ctx.outbox.list({ ...(phone ? { phoneNumber: phone } : {}), ...(channel ? { channel } : {}), ...(customerId ? { customerId } : {}) }) });
  });

  app.get('/callbacks', (c) => {
    const reference = c.req.query('reference_id')?.toUpperCase();
    const attempts = reference ? ctx.callbacks.attempts.filter((a) => a.referenceId.toUpperCase() === reference) : ctx.callbacks.attempts;
    return json(200, { attempts: attempts.map(viewOf) });
  });

  // The exact signed bytes and the headers as sent: to verify the signature or copy the request as curl.
  app.get('/callbacks/:id/raw', (c) => {
    const id = idParam(c.req.param('id'));
    const attempt = id === undefined ? undefined : ctx.callbacks.find(id);
    if (!attempt) return unknownCallback(c.req.param('id'));
    return json(200, { id: attempt.id, url: attempt.url, body: attempt.body, headers: attempt.headers });
  });

  app.get('/transactions', (c) => {
    const phone = phoneQuery(c.req.query('phone_number'));
    const kind = oneOfQuery(c.req.query('kind'), 'kind', KINDS);
    const customerId = c.req.query('customer_id') || undefined;
    const list = ctx.transactions.list({ ...(phone ? { phoneNumber: phone } : {}), ...(kind ? { kind } : {}), ...(customerId ? { customerId } : {}) });
    return json(200, { transactions: list.map((tx) => ctx.transactions.view(tx)) });
  });

  app.get('/transactions/:id', (c) => {
    const tx = ctx.transactions.find(c.req.param('id'));
    return tx ? json(200, { transaction: ctx.transactions.view(tx) }) : unknownTransaction(c.req.param('id'));
  });

  app.get('/faults', () => json(200, { faults: ctx.faults.list() }));
  app.get('/clock', () => json(200, { now: ctx.clock.now(), offsetMs: ctx.clock.offsetMs }));
  app.get('/openapi.json', () => json(200, openApiDocument()));
}

export const unknownCallback = (id: string) =>
  controlError(404, 'unknown_callback', `No callback attempt has id ${JSON.stringify(id.slice(0, 40))}: GET /_emulator/callbacks lists them, each with its id (a reset forgets them).`, { field: 'id' });

export const unknownTransaction = (id: string) =>
  controlError(404, 'unknown_transaction', `No transaction has reference id ${JSON.stringify(id.slice(0, 40))}: GET /_emulator/transactions lists them (SMS, Verify and Voice; a reset forgets them).`, { field: 'reference_id' });
