// Logging: the levels, the logger shape, and the one place that turns a transport event into a
// log line (level, fields, message). What a line may contain depends on the line's own level:
//
//   debug  the request of each attempt: path and query, headers with Authorization redacted, the
//          string to sign (method, content type, x-ts-* headers, body, path): phone numbers and
//          message text may appear, verification codes are masked. Never the key or a signature.
//   info   each answer: method, path (phone numbers masked), status, service code, reference id,
//          attempt, milliseconds. No query, no body, no header.
//   warn   each retry: as info, plus the error code and the wait.
//   error  the request failed for good: as info, plus the error code, attempts in all.
import { NetworkError, type ClientError, type ClientErrorCode } from '../errors.js';
import { causeCode } from './classify.js';
import type { Events, Observer } from './events.js';
import { maskSecrets, redact } from '../secrets.js';
import { maskPath } from './mask.js';

export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;

/** `off` (default) logs nothing; each level adds the lines of the levels before it. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The fields of a line, for structured loggers. */
export interface LogFields {
  /** What happened: an attempt is sent, an answer arrived, a retry is scheduled, the request failed. */
  event: 'request' | 'response' | 'retry' | 'failure';
  method: string;
  /** `host:port` the request went to. */
  host: string;
  /** The path without the query; at info and above, digits of phone numbers are masked but the last 4. */
  path: string;
  /** The attempt (1 for the first); for `failure`, the attempts made in all. */
  attempt: number;
  status?: number;
  /** `status.code` or the first `errors[].code` of the answer. */
  serviceCode?: number;
  referenceId?: string;
  /** Of the attempt (`response`) or of the whole request, retries and waits included (`failure`). */
  durationMs?: number;
  /** The wait before the next attempt (`retry`). */
  delayMs?: number;
  /** The error's stable code (`retry`, `failure`). */
  error?: ClientErrorCode;
  /** The network error's cause code, e.g. ECONNREFUSED. */
  cause?: string;
  /** Debug only: the query, verification codes masked. */
  query?: string;
  /** Debug only: the headers sent, Authorization redacted. */
  headers?: Record<string, string>;
  /** Debug only: what was signed, verification codes masked. */
  stringToSign?: string;
}

type Method = Exclude<LogLevel, 'off'>;

/**
 * Anything with `error`, `warn`, `info` and `debug`: pino, bunyan, console. Each line is one call,
 * `logger.info(fields, message)` (the structured loggers' order; console prints both).
 */
export interface Logger {
  error(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  debug(fields: LogFields, message: string): void;
}

const PREFIX = '@x/client';


/** The service code and reference id of an answer, from its data or its error. */
function serviceFacts(outcome: Events['response']['outcome']): Pick<LogFields, 'serviceCode' | 'referenceId'> {
  const source = ('error' in outcome ? outcome.error : outcome.result.data) as { serviceCode?: unknown; referenceId?: unknown; status?: { code?: unknown }; reference_id?: unknown } | null;
  if (!source || typeof source !== 'object') return {};
  const code = 'error' in outcome ? source.serviceCode : source.status?.code;
  const id = 'error' in outcome ? source.referenceId : source.reference_id;
  return { ...(typeof code === 'number' ? { serviceCode: code } : {}), ...(typeof id === 'string' ? { referenceId: id } : {}) };
}

/** What the error says, for a line: its code, the status and service code of an answer, the cause. */
function errorFields(error: ClientError): Pick<LogFields, 'error' | 'status' | 'serviceCode' | 'cause'> {
  const e = error as ClientError & { status?: unknown; serviceCode?: unknown };
  return {
    error: error.code,
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(typeof e.serviceCode === 'number' ? { serviceCode: e.serviceCode } : {}),
    ...(error instanceof NetworkError && causeCode(error.cause) ? { cause: causeCode(error.cause) } : {}),
  };
}

/** "rate_limited (HTTP 429, service 10019, ECONNREFUSED)" */
function describe(fields: Pick<LogFields, 'error' | 'status' | 'serviceCode' | 'cause'>): string {
  const details = [fields.status !== undefined ? `HTTP ${fields.status}` : '', fields.serviceCode !== undefined ? `service ${fields.serviceCode}` : '', fields.cause ?? ''].filter(Boolean);
  return `${fields.error}${details.length ? ` (${details.join(', ')})` : ''}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The level of each line. A caller's abort is the caller's decision, not a fault: an info line. */
const LEVEL = { request: 'debug', response: 'info', retry: 'warn' } as const;
const failureLevel = (error: ClientError): Method => (error.code === 'aborted' ? 'info' : 'error');

/** The one place a line is made: its fields and its message (its level is LEVEL above). */
type Line = { fields: LogFields; message: string };

function base(event: LogFields['event'], { method, url }: { method: string; url: URL }, attempt: number): LogFields {
  return { event, method, host: url.host, path: maskPath(url.pathname), attempt };
}

const lines = {
  request(e: Events['request']): Line {
    const fields: LogFields = { ...base('request', e, e.attempt), path: e.url.pathname, headers: redact(e.headers) };
    if (e.url.search) fields.query = maskSecrets(e.url.search.slice(1));
    if (e.stringToSign !== undefined) fields.stringToSign = maskSecrets(e.stringToSign);
    return { fields, message: `${PREFIX} ${e.method} ${fields.path}${fields.query ? `?${fields.query}` : ''} attempt ${e.attempt}: sending` };
  },
  response(e: Events['response']): Line {
    const fields: LogFields = { ...base('response', e, e.attempt), status: e.status, ...serviceFacts(e.outcome), durationMs: e.durationMs };
    const service = fields.serviceCode !== undefined ? ` (service ${fields.serviceCode})` : '';
    return { fields, message: `${PREFIX} ${e.method} ${fields.path} -> ${e.status}${service}, attempt ${e.attempt}, ${e.durationMs} ms` };
  },
  retry(e: Events['retry']): Line {
    const fields: LogFields = { ...base('retry', e, e.attempt), ...errorFields(e.error), delayMs: e.delayMs };
    return { fields, message: `${PREFIX} ${e.method} ${fields.path} attempt ${e.attempt} failed: ${describe(fields)}; retrying in ${e.delayMs} ms` };
  },
  failure(e: Events['failure']): Line {
    const fields: LogFields = { ...base('failure', e, e.attempts), ...errorFields(e.error), durationMs: e.durationMs };
    return { fields, message: `${PREFIX} ${e.method} ${fields.path} failed after ${plural(e.attempts, 'attempt')}, ${e.durationMs} ms: ${describe(fields)}` };
  },
};


/** Without a logger: the message, as text, on the console. */
function consoleLogger(): Logger | undefined {
  const c = (globalThis as { console?: Partial<Record<Method, (...data: unknown[]) => void>> }).console;
  if (!c) return undefined;
  const to = (method: Method) => (_fields: LogFields, message: string) => (c[method] ?? c.info)?.call(c, message);
  return { error: to('error'), warn: to('warn'), info: to('info'), debug: to('debug') };
}

/** The log of a transport, an observer of its events, or undefined when nothing is logged. A logger that throws is ignored. */
export function createLog(level: LogLevel, logger: Logger | undefined): Observer | undefined {
  if (level === 'off') return undefined;
  const target = logger ?? consoleLogger();
  if (!target) return undefined;
  // `at` is the line's level, known before the line is made: nothing is formatted for nothing.
  // LOG_LEVELS is in order (off, error, ..., debug): a line is written when its level ranks at most this one.
  const rank = LOG_LEVELS.indexOf(level);
  // A logger that throws is ignored by the transport, as every observer.
  const emit = (at: Method, line: () => Line) => {
    if (LOG_LEVELS.indexOf(at) > rank) return;
    const { fields, message } = line();
    target[at](fields, message);
  };
  return {
    request: (e) => emit(LEVEL.request, () => lines.request(e)),
    response: (e) => emit(LEVEL.response, () => lines.response(e)),
    retry: (e) => emit(LEVEL.retry, () => lines.retry(e)),
    failure: (e) => emit(failureLevel(e.error), () => lines.failure(e)),
  };
}

/** Checks `logLevel` and `logger` options (ConfigurationError-worthy problems, or undefined). */
export function logOptionsProblem(level: unknown, logger: unknown): string | undefined {
  if (level !== undefined && !(LOG_LEVELS as readonly unknown[]).includes(level)) return `logLevel must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(String(level).slice(0, 20))}.`;
  if (logger !== undefined) {
    const missing = (['error', 'warn', 'info', 'debug'] as const).filter((m) => typeof (logger as Record<string, unknown> | null)?.[m] !== 'function');
    if (missing.length) return `logger must have error, warn, info and debug methods (pino, console); it lacks ${missing.join(', ')}.`;
  }
  return undefined;
}
