// Checks of JSON the emulator is handed (a saved state, a number script, a seed file): each check
// names the field by its path (`numbers[0].steps[1].sms`) and says what to put there.
import { ShapeError, type EmulatorErrorCode } from '../errors.js';

/** A short, printable picture of a value for an error message (never the whole of a long string). */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value).replace(/[^\x20-\x7e]/g, '?');
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

export type Record_ = Record<string, unknown>;

/** The checks of one kind of document, throwing ShapeErrors with its error code. */
export function shapeChecks(code: EmulatorErrorCode) {
  const fail = (path: string, message: string): never => {
    throw new ShapeError(code, path, message);
  };
  return {
    fail,
    object(path: string, value: unknown, fields: readonly string[]): Record_ {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, `must be an object; got ${shown(value)}.`);
      for (const key of Object.keys(value as Record_)) if (!fields.includes(key)) fail(`${path}.${key}`, `is not a field here; the fields are ${fields.join(', ')}.`);
      return value as Record_;
    },
    array(path: string, value: unknown, max: number): unknown[] {
      if (!Array.isArray(value)) fail(path, `must be an array; got ${shown(value)}.`);
      if ((value as unknown[]).length > max) fail(path, `must have at most ${max} items; got ${(value as unknown[]).length}.`);
      return value as unknown[];
    },
    string(path: string, value: unknown, pattern: RegExp, what: string): string {
      if (typeof value !== 'string' || !pattern.test(value)) fail(path, `must be ${what}; got ${shown(value)}.`);
      return value as string;
    },
    integer(path: string, value: unknown, min: number, max: number, what = 'a whole number'): number {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(path, `must be ${what} from ${min} to ${max}; got ${shown(value)}.`);
      return value as number;
    },
    oneOf<T extends string | number>(path: string, value: unknown, allowed: readonly T[]): T {
      if (!allowed.includes(value as T)) fail(path, `must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}; got ${shown(value)}.`);
      return value as T;
    },
    boolean(path: string, value: unknown): boolean {
      if (typeof value !== 'boolean') fail(path, `must be true or false; got ${shown(value)}.`);
      return value as boolean;
    },
  };
}
