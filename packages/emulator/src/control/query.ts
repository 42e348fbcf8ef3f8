// Query parameters of the control routes: each checked, a bad one is a 400 naming it.
import { json } from '../service/respond.js';
import { phoneKey, PHONE_QUERY_HINT } from '../service/phone.js';

/** The control family: `{ error: <what happened and what to do>, code, field? }`. */
export const controlError = (status: number, code: string, error: string, extra: Record<string, unknown> = {}) => json(status, { error, code, ...extra });

/** A query parameter that failed its check: answered 400 `invalid_query` naming it. */
export class QueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }

  answer(): Response {
    return controlError(400, 'invalid_query', this.message, { field: this.field });
  }
}

/** A phone number (or email address) in any format the client accepts; undefined when absent or empty. */
export function phoneQuery(value: string | undefined, field = 'phone_number'): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (phoneKey(value) === undefined) throw new QueryError(field, `${field} must be ${PHONE_QUERY_HINT}.`);
  return value;
}

/** A whole number in a range; undefined when absent or empty. */
export function intQuery(value: string | undefined, field: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = /^-?\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new QueryError(field, `${field} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value.slice(0, 40))}.`);
  return n;
}

/** One of a list of words; undefined when absent or empty. */
export function oneOfQuery<T extends string>(value: string | undefined, field: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === '') return undefined;
  if (!allowed.includes(value as T)) throw new QueryError(field, `${field} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value.slice(0, 40))}.`);
  return value as T;
}
