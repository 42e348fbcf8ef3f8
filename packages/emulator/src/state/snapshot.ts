// The emulator's state as one JSON document (GET/PUT /_emulator/snapshot, `--state <file>`):
// transactions, outbox, callback attempts, journal and the clock's offset. Taking one and checking
// one are here (portable); reading and writing files is the Node server's (node.ts, cli/state-file.ts).
import { redactHeaders, type CallbackAttempt } from './callbacks.js';
import type { EmulatorContext } from './context.js';
import type { JournalEntry } from './journal.js';
import { NON_GSM_KEPT, OUTBOX_CHANNELS, type OutboxMessage } from './outbox.js';
import { MESSAGE_ENCODINGS } from '@x/service/request';
import { shapeChecks, type Record_ } from '../service/shape.js';
import { maskCredentials, withoutCredentials } from '../service/url.js';
import { savedTransaction, type SavedTransaction } from './store.js';

/** What a saved state holds at most (the newest are kept): the file stays bounded whatever the emulator keeps. */
export const SNAPSHOT_LIMITS = { transactions: 10_000, outbox: 10_000, callbacks: 1_000, journal: 100_000 } as const;
export const SNAPSHOT_FORMAT = 'x-emulator-state';

/**
 * A saved state. Kept: transactions (with their verification codes: the emulator's own test
 * codes, which its outbox shows anyway), the outbox, callback attempts (signatures cut, so they
 * cannot be re-sent), the journal and the clock's offset. Not kept: accounts and their keys,
 * fault rules, number scripts, nonces, user names and passwords in callback URLs.
 */
export interface EmulatorSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: 1;
  /** When it was taken, on the emulator's clock. */
  savedAt: number;
  clockOffsetMs: number;
  transactions: SavedTransaction[];
  outbox: OutboxMessage[];
  callbacks: CallbackAttempt[];
  journal: JournalEntry[];
}

const newest = <T>(items: T[], max: number): T[] => (items.length > max ? items.slice(items.length - max) : items);

/** The state of an emulator now, bounded by SNAPSHOT_LIMITS. */
export function takeSnapshot(ctx: EmulatorContext): EmulatorSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    version: 1,
    savedAt: ctx.now(),
    clockOffsetMs: ctx.clock.offsetMs,
    transactions: newest(ctx.transactions.list(), SNAPSHOT_LIMITS.transactions).map((tx) => {
      const saved = savedTransaction(tx);
      if (saved.callbackUrl !== undefined) saved.callbackUrl = maskCredentials(saved.callbackUrl);
      return saved;
    }),
    outbox: newest(ctx.outbox.list(), SNAPSHOT_LIMITS.outbox),
    callbacks: newest(ctx.callbacks.attempts, SNAPSHOT_LIMITS.callbacks).map((a) => ({ ...a, url: maskCredentials(a.url), headers: redactHeaders(a.headers), restored: true as const })),
    journal: ctx.journal.entries(),
  };
}

const { object, array, string, integer, oneOf, boolean, fail } = shapeChecks('invalid_state');
const REFERENCE = /^[0-9A-F]{32}$/;
const TEXT = /^[\s\S]{0,4096}$/;
const ANY = /^[\s\S]*$/;
const TIME = (path: string, value: unknown) => integer(path, value, 0, 8.64e15, 'a time in epoch milliseconds');
const CODE = (path: string, value: unknown) => integer(path, value, -999_999, 999_999, 'a status code');
const optional = <T>(record: Record_, key: string, check: (value: unknown) => T): void => {
  if (record[key] !== undefined) check(record[key]);
};

function checkTransaction(path: string, value: unknown): SavedTransaction {
  const tx = object(path, value, ['kind', 'referenceId', 'customerId', 'phoneNumber', 'createdAt', 'settlesAt', 'status', 'history', 'finalCode', 'externalId', 'callbackUrl', 'verify', 'voice', 'parts']);
  oneOf(`${path}.kind`, tx.kind, ['sms', 'verify', 'voice']);
  optional(tx, 'parts', (v) => integer(`${path}.parts`, v, 2, 1_000_000, 'the parts of its SMS (message_parts_count)'));
  string(`${path}.referenceId`, tx.referenceId, REFERENCE, 'a reference id (32 upper-case hex digits)');
  string(`${path}.customerId`, tx.customerId, TEXT, 'a customer id');
  string(`${path}.phoneNumber`, tx.phoneNumber, TEXT, 'a phone number');
  TIME(`${path}.createdAt`, tx.createdAt);
  TIME(`${path}.settlesAt`, tx.settlesAt);
  const status = object(`${path}.status`, tx.status, ['code', 'updatedAt']);
  CODE(`${path}.status.code`, status.code);
  TIME(`${path}.status.updatedAt`, status.updatedAt);
  array(`${path}.history`, tx.history, 64).forEach((h, i) => {
    const entry = object(`${path}.history[${i}]`, h, ['code', 'at']);
    CODE(`${path}.history[${i}].code`, entry.code);
    TIME(`${path}.history[${i}].at`, entry.at);
  });
  if ((tx.history as unknown[]).length === 0) fail(`${path}.history`, 'must hold at least the first status.');
  CODE(`${path}.finalCode`, tx.finalCode);
  optional(tx, 'externalId', (v) => string(`${path}.externalId`, v, TEXT, 'a string'));
  optional(tx, 'callbackUrl', (v) => string(`${path}.callbackUrl`, v, /^https?:\/\/\S{1,4000}$/, 'an http(s) URL'));
  optional(tx, 'verify', (v) => {
    const verify = object(`${path}.verify`, v, ['channel', 'code', 'state', 'entered', 'attempts', 'completedAt']);
    oneOf(`${path}.verify.channel`, verify.channel, ['sms', 'call']);
    string(`${path}.verify.code`, verify.code, /^[0-9]{1,10}$/, 'a code of digits');
    oneOf(`${path}.verify.state`, verify.state, ['UNKNOWN', 'VALID', 'INVALID', 'EXPIRED', 'MAX_ATTEMPTS_EXCEEDED']);
    string(`${path}.verify.entered`, verify.entered, TEXT, 'a string');
    integer(`${path}.verify.attempts`, verify.attempts, 0, 1_000);
    optional(verify, 'completedAt', (c) => TIME(`${path}.verify.completedAt`, c));
  });
  if (tx.kind === 'verify' && tx.verify === undefined) fail(`${path}.verify`, 'a verify transaction needs its verify object (channel, code, state, entered, attempts).');
  optional(tx, 'voice', (v) => {
    const voice = object(`${path}.voice`, v, ['callerId', 'callForwarding']);
    if (voice.callerId !== null) string(`${path}.voice.callerId`, voice.callerId, TEXT, 'a caller id or null');
    optional(voice, 'callForwarding', (f) => {
      const forwarding = object(`${path}.voice.callForwarding`, f, ['action', 'call_forward']);
      oneOf(`${path}.voice.callForwarding.action`, forwarding.action, ['FLAG', 'BLOCK']);
      oneOf(`${path}.voice.callForwarding.call_forward`, forwarding.call_forward, ['FORWARDED', 'NOT_FORWARDED']);
    });
  });
  if (tx.kind === 'voice' && tx.voice === undefined) fail(`${path}.voice`, 'a voice transaction needs its voice object ({"callerId": null}).');
  return tx as unknown as SavedTransaction;
}

function checkOutbox(path: string, value: unknown): OutboxMessage {
  const m = object(path, value, ['referenceId', 'customerId', 'channel', 'product', 'phoneNumber', 'recipientId', 'text', 'messageType', 'senderId', 'code', 'encoding', 'units', 'parts', 'unitsPerPart', 'nonGsm', 'at']);
  string(`${path}.referenceId`, m.referenceId, REFERENCE, 'a reference id (32 upper-case hex digits)');
  string(`${path}.customerId`, m.customerId, TEXT, 'a customer id');
  oneOf(`${path}.channel`, m.channel, OUTBOX_CHANNELS);
  oneOf(`${path}.product`, m.product, ['messaging', 'verify', 'voice', 'bulk_sms', 'verify_api']);
  string(`${path}.phoneNumber`, m.phoneNumber, TEXT, 'a phone number or email address');
  string(`${path}.text`, m.text, /^[\s\S]{0,20000}$/, 'the text');
  for (const key of ['recipientId', 'messageType', 'senderId', 'code']) optional(m, key, (v) => string(`${path}.${key}`, v, TEXT, 'a string'));
  // What an SMS costs (outbox.ts smsFacts): its encoding, units and parts, the characters that forced UCS-2.
  optional(m, 'encoding', (v) => oneOf(`${path}.encoding`, v, MESSAGE_ENCODINGS));
  for (const key of ['units', 'parts', 'unitsPerPart']) optional(m, key, (v) => integer(`${path}.${key}`, v, 0, 1_000_000));
  optional(m, 'nonGsm', (v) =>
    array(`${path}.nonGsm`, v, NON_GSM_KEPT).forEach((c, i) => {
      const at = `${path}.nonGsm[${i}]`;
      const n = object(at, c, ['character', 'index']);
      string(`${at}.character`, n.character, /^[\s\S]{1,2}$/u, 'one character');
      integer(`${at}.index`, n.index, 0, 1_000_000);
    }),
  );
  TIME(`${path}.at`, m.at);
  return m as unknown as OutboxMessage;
}

function checkAttempt(path: string, value: unknown): CallbackAttempt {
  const a = object(path, value, ['id', 'referenceId', 'url', 'attempt', 'at', 'ok', 'status', 'error', 'cause', 'address', 'nextAttemptAt', 'ms', 'resentFrom', 'chaos', 'restored', 'body', 'headers']);
  integer(`${path}.id`, a.id, 1, Number.MAX_SAFE_INTEGER, 'an attempt id');
  string(`${path}.referenceId`, a.referenceId, TEXT, 'a reference id');
  string(`${path}.url`, a.url, TEXT, 'a URL');
  integer(`${path}.attempt`, a.attempt, 1, 1_000);
  TIME(`${path}.at`, a.at);
  boolean(`${path}.ok`, a.ok);
  optional(a, 'status', (v) => integer(`${path}.status`, v, 100, 599, 'an HTTP status'));
  for (const key of ['error', 'cause', 'address']) optional(a, key, (v) => string(`${path}.${key}`, v, TEXT, 'a string'));
  optional(a, 'nextAttemptAt', (v) => TIME(`${path}.nextAttemptAt`, v));
  optional(a, 'ms', (v) => {
    if (typeof v !== 'number' || !(v >= 0)) fail(`${path}.ms`, 'must be a number of milliseconds >= 0.');
  });
  optional(a, 'resentFrom', (v) => integer(`${path}.resentFrom`, v, 1, Number.MAX_SAFE_INTEGER, 'an attempt id'));
  optional(a, 'chaos', (v) => {
    const chaos = object(`${path}.chaos`, v, ['kind', 'detail']);
    oneOf(`${path}.chaos.kind`, chaos.kind, ['duplicate', 'reorder', 'late', 'drop']);
    string(`${path}.chaos.detail`, chaos.detail, TEXT, 'a string');
  });
  string(`${path}.body`, a.body, ANY, 'the body sent, as text');
  const headers = object(`${path}.headers`, a.headers, Object.keys(a.headers ?? {}));
  for (const [name, header] of Object.entries(headers)) string(`${path}.headers.${name}`, header, TEXT, 'a header value');
  return { ...(a as unknown as CallbackAttempt), restored: true };
}

function checkEntry(path: string, value: unknown): JournalEntry {
  const e = object(path, value, ['seq', 'at', 'method', 'path', 'query', 'scheme', 'customerId', 'verdict', 'stringToSign', 'status', 'serviceCode', 'referenceId', 'phoneNumbers', 'fault', 'ms']);
  integer(`${path}.seq`, e.seq, 1, Number.MAX_SAFE_INTEGER, 'a sequence number');
  TIME(`${path}.at`, e.at);
  string(`${path}.method`, e.method, /^[A-Z]{1,16}$/, 'an HTTP method');
  string(`${path}.path`, e.path, TEXT, 'a path');
  oneOf(`${path}.scheme`, e.scheme, ['digest', 'basic', 'none']);
  string(`${path}.verdict`, e.verdict, /^[a-z_:]{1,64}$/, 'a verdict such as "ok"');
  integer(`${path}.status`, e.status, 100, 599, 'an HTTP status');
  for (const key of ['query', 'customerId', 'referenceId', 'fault']) optional(e, key, (v) => string(`${path}.${key}`, v, TEXT, 'a string'));
  optional(e, 'serviceCode', (v) => CODE(`${path}.serviceCode`, v));
  optional(e, 'phoneNumbers', (v) => array(`${path}.phoneNumbers`, v, 1_000).forEach((n, i) => string(`${path}.phoneNumbers[${i}]`, n, TEXT, 'a phone number')));
  optional(e, 'stringToSign', (v) => {
    const s = object(`${path}.stringToSign`, v, ['ours', 'theirs']);
    string(`${path}.stringToSign.ours`, s.ours, ANY, 'a string');
    optional(s, 'theirs', (t) => string(`${path}.stringToSign.theirs`, t, ANY, 'a string'));
  });
  if (typeof e.ms !== 'number' || !(e.ms >= 0)) fail(`${path}.ms`, 'must be a number of milliseconds >= 0.');
  return e as unknown as JournalEntry;
}

/**
 * Checks a saved state field by field. Throws a ShapeError (`invalid_state`) whose `field` is
 * the path of the first bad value; returns it typed when it checks out.
 */
export function parseSnapshot(input: unknown): EmulatorSnapshot {
  const s = object('state', input, ['format', 'version', 'savedAt', 'clockOffsetMs', 'transactions', 'outbox', 'callbacks', 'journal']);
  if (s.format !== SNAPSHOT_FORMAT) fail('state.format', `must be "${SNAPSHOT_FORMAT}" (a file written by x-emulator --state or GET /_emulator/snapshot); got ${JSON.stringify(String(s.format).slice(0, 40))}.`);
  if (s.version !== 1) fail('state.version', `must be 1, the version this emulator reads; got ${JSON.stringify(String(s.version).slice(0, 20))}.`);
  TIME('state.savedAt', s.savedAt);
  integer('state.clockOffsetMs', s.clockOffsetMs, 0, 100 * 366 * 86_400_000, 'a number of milliseconds');
  return {
    format: SNAPSHOT_FORMAT,
    version: 1,
    savedAt: s.savedAt as number,
    clockOffsetMs: s.clockOffsetMs as number,
    transactions: array('state.transactions', s.transactions, SNAPSHOT_LIMITS.transactions).map((t, i) => checkTransaction(`state.transactions[${i}]`, t)),
    outbox: array('state.outbox', s.outbox, SNAPSHOT_LIMITS.outbox).map((m, i) => checkOutbox(`state.outbox[${i}]`, m)),
    callbacks: array('state.callbacks', s.callbacks, SNAPSHOT_LIMITS.callbacks).map((a, i) => checkAttempt(`state.callbacks[${i}]`, a)),
    journal: array('state.journal', s.journal, SNAPSHOT_LIMITS.journal).map((e, i) => checkEntry(`state.journal[${i}]`, e)),
  };
}

/**
 * Replaces the emulator's state with a saved one (checked first: a bad one throws and changes
 * nothing). Transactions still in progress settle at their time, with their callback when their
 * account is known.
 */
export function restoreSnapshot(ctx: EmulatorContext, input: unknown): EmulatorSnapshot {
  const snapshot = parseSnapshot(input);
  ctx.reset();
  ctx.clock.restore(snapshot.clockOffsetMs);
  // A saved state holds no password (`user:***@`): a restored transaction's callback goes without credentials.
  for (const tx of snapshot.transactions) ctx.transactions.restore(tx.callbackUrl === undefined ? tx : { ...tx, callbackUrl: withoutCredentials(tx.callbackUrl) }, ctx.customers.get(tx.customerId));
  ctx.outbox.restore(snapshot.outbox);
  ctx.callbacks.restore(snapshot.callbacks);
  ctx.journal.restore(snapshot.journal);
  return snapshot;
}
