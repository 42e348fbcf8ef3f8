// Building a request: everything checked and computed once, before anything is signed or sent.
import { CONTENT_TYPE } from '@x/auth/protocol';
import { ConfigurationError, ValidationError } from '../errors.js';
import { DEFAULTS, type ClientOptions, type RawRequest } from './options.js';
import type { RetryPolicy } from './retry.js';
import { resolvePath, type Base } from './url.js';

export interface Prepared {
  method: string;
  url: URL;
  contentType: string | undefined;
  body: string | undefined;
  idempotent: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  retry: RetryPolicy;
  signal: AbortSignal | undefined;
}

type Fault = (field: string, message: string) => Error;
export const configuration: Fault = (field, message) => new ConfigurationError(`${field} ${message}`);
const validation: Fault = (field, message) => new ValidationError(field, message);

/** A whole number >= min, or the default when not given. */
export function count(value: unknown, field: string, min: number, fallback: number, fault: Fault): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) throw fault(field, `must be a whole number >= ${min}, got ${String(value)}.`);
  return value;
}

/** Checks the client-wide numbers once, at createClient. */
export function checkClientOptions(options: ClientOptions): void {
  count(options.timeoutMs, 'timeoutMs', 0, DEFAULTS.timeoutMs, configuration);
  count(options.maxResponseBytes, 'maxResponseBytes', 1, DEFAULTS.maxResponseBytes, configuration);
  if (options.retry) retryPolicy(options.retry, undefined, configuration);
  if (options.now !== undefined && typeof options.now !== 'function') throw configuration('now', 'must be a function that returns a Date or epoch milliseconds, e.g. () => Date.now().');
}

function retryPolicy(client: ClientOptions['retry'], request: RawRequest['retry'], fault: Fault): RetryPolicy {
  const chosen = request ?? client;
  if (chosen === false) return { attempts: 1, minDelayMs: DEFAULTS.minDelayMs, maxDelayMs: DEFAULTS.maxDelayMs };
  const merged = request ? { ...(client || {}), ...request } : client || {};
  return {
    attempts: 1 + count(merged.retries, 'retry.retries', 0, DEFAULTS.retries, fault),
    minDelayMs: count(merged.minDelayMs, 'retry.minDelayMs', 0, DEFAULTS.minDelayMs, fault),
    maxDelayMs: count(merged.maxDelayMs, 'retry.maxDelayMs', 0, DEFAULTS.maxDelayMs, fault),
  };
}

export function buildRequest(request: RawRequest, base: Base, options: ClientOptions): Prepared {
  if (!request || typeof request !== 'object') throw new ValidationError('request', 'must be an object: { method, path }.');
  if (typeof request.method !== 'string' || !/^[A-Za-z]+$/.test(request.method)) throw new ValidationError('method', 'must be an HTTP method such as GET or POST.');
  const method = request.method.toUpperCase();
  const url = resolvePath(base, request.path, request.query);
  let body: string | undefined;
  let contentType: string | undefined;
  if (request.form) {
    const form = new URLSearchParams();
    const fields = request.form;
    for (const key in fields) {
      const value = fields[key];
      if (value !== undefined && Object.hasOwn(fields, key)) form.append(key, value);
    }
    body = form.toString();
    contentType = CONTENT_TYPE.form;
  } else if (request.json !== undefined) {
    body = JSON.stringify(request.json);
    contentType = CONTENT_TYPE.json;
  }
  return {
    method,
    url,
    contentType,
    body,
    idempotent: request.idempotent ?? (method === 'GET' || method === 'HEAD'),
    timeoutMs: count(request.timeoutMs ?? options.timeoutMs, 'timeoutMs', 0, DEFAULTS.timeoutMs, validation),
    maxResponseBytes: count(request.maxResponseBytes ?? options.maxResponseBytes, 'maxResponseBytes', 1, DEFAULTS.maxResponseBytes, validation),
    retry: retryPolicy(options.retry, request.retry, validation),
    signal: request.signal,
  };
}
