import { analyzeMessage } from '@x/service/request';
import { ValidationError } from './errors.js';

const PHONE = /^\d{8,15}$/;
const HEX32 = /^[0-9A-Fa-f]{32}$/;

/**
 * Whether a text has more than `max` characters (code points, so an emoji counts once). A string
 * has at least as many UTF-16 units as code points, so one no longer than `max` units is not
 * counted at all.
 */
const longerThan = (value: string, max: number): boolean => value.length > max && [...value].length > max;

export function phoneNumber(value: unknown, field = 'phoneNumber'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(field, 'is required: digits with the country code, e.g. "15555551234".');
  if (PHONE.test(value)) return value; // already digits only: nothing to strip
  const digits = value.replace(/[\s().-]/g, '').replace(/^\+/, '');
  if (!PHONE.test(digits)) throw new ValidationError(field, 'must be 8 to 15 digits with the country code, e.g. "15555551234" or "+1 555 555 1234".');
  return digits;
}

export function referenceId(value: unknown): string {
  if (typeof value !== 'string' || !HEX32.test(value)) throw new ValidationError('referenceId', 'must be the 32-character hexadecimal reference_id the service returned.');
  return value;
}

export function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(field, 'must not be empty.');
  if (longerThan(value, max)) throw new ValidationError(field, `must be at most ${max} characters.`);
  return value;
}

export function oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[]): T {
  if (!allowed.includes(value as T)) throw new ValidationError(field, `must be one of ${allowed.join(', ')}.`);
  return value as T;
}

export function verifyCode(value: unknown, field = 'verifyCode'): string {
  if (typeof value !== 'string' || !/^\d{3,7}$/.test(value)) throw new ValidationError(field, 'must be 3 to 7 digits.');
  return value;
}

export function template(value: unknown): string {
  const t = text(value, 'template', 1600);
  if (!t.includes('$$CODE$$')) throw new ValidationError('template', 'must contain the placeholder $$CODE$$, where the code goes.');
  return t;
}

export function url(value: unknown, field: string): string {
  try {
    const parsed = new URL(String(value));
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error();
    return parsed.href;
  } catch {
    throw new ValidationError(field, 'must be an absolute http(s) URL.');
  }
}

export function language(value: unknown): string {
  if (typeof value !== 'string' || !/^[a-z]{2}-[A-Z]{2}$/.test(value)) throw new ValidationError('language', 'must be a locale like "en-US".');
  return value;
}

export function maxLength(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value === '' || longerThan(value, max)) throw new ValidationError(field, `must be 1 to ${max} characters.`);
  return value;
}

/** Checks a parameter only when it is given. */
export const optional = <T, R>(value: T | undefined, check: (value: T) => R): R | undefined => (value === undefined ? undefined : check(value));

export function pattern(value: unknown, field: string, re: RegExp, rule: string): string {
  if (typeof value !== 'string' || !re.test(value)) throw new ValidationError(field, `must be ${rule}.`);
  return value;
}

export function email(value: unknown, field = 'email'): string {
  if (typeof value !== 'string' || value.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) throw new ValidationError(field, 'must be an email address, e.g. "user@example.com".');
  return value;
}

export function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ValidationError(field, `must be a whole number from ${min} to ${max}.`);
  return value;
}

export function boolean(value: unknown, field: string): boolean {
  if (typeof value !== 'boolean') throw new ValidationError(field, 'must be true or false.');
  return value;
}

/** Escape hatches: plain objects only (a string or an array there is a mistake). */
export function record<T>(value: unknown, field: string): Record<string, T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(field, 'must be an object.');
  return value as Record<string, T>;
}

/** The params argument of an operation. */
export function params<T>(value: T, name = 'params'): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(name, 'must be an object of named parameters.');
  return value;
}

export function string(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(field, 'must be a non-empty string.');
  return value;
}

/** IPv4 or IPv6 text (loose: the service judges the address itself). */
export function ip(value: unknown, field = 'originatingIp'): string {
  if (typeof value !== 'string' || !/^[0-9A-Fa-f:.]{2,45}$/.test(value) || !/[.:]/.test(value)) throw new ValidationError(field, 'must be an IPv4 or IPv6 address, e.g. "203.0.113.7".');
  return value;
}

/** An SMS text, refused when it is sent in more than `max` parts (see analyzeMessage); 0: no limit. */
export function smsParts(message: string, max: number): string {
  const { parts, encoding, nonGsm: [first] } = max ? analyzeMessage(message) : { parts: 0, encoding: '', nonGsm: [] };
  if (parts <= max) return message;
  const ucs2 = first ? `, or replace ${JSON.stringify(first.character)} at ${first.index} and the other non-GSM characters (analyzeMessage(message).nonGsm)` : '';
  throw new ValidationError('message', `takes ${parts} SMS parts in ${encoding}, more than maxParts (${max}): shorten it${ucs2}.`);
}
