import { ValidationError } from './errors.js';

const PHONE = /^\d{8,15}$/;
const HEX32 = /^[0-9A-Fa-f]{32}$/;

export function phoneNumber(value: unknown, field = 'phoneNumber'): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ValidationError(field, 'is required: digits with the country code, e.g. "15555551234".');
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
  if ([...value].length > max) throw new ValidationError(field, `must be at most ${max} characters.`);
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
  if (typeof value !== 'string' || value === '' || [...value].length > max) throw new ValidationError(field, `must be 1 to ${max} characters.`);
  return value;
}
