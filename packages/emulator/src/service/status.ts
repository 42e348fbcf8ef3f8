import { describe } from './codes.js';

/** The `status` object of every answer and callback. */
export interface StatusBody {
  code: number;
  description: string;
  updated_on: string;
}

// The date and time up to the second change once a second: formatted once per second (every
// answer and callback prints one or more timestamps; toISOString costs microseconds in a server).
let second = Number.NaN;
let prefix = '';

/** RFC 3339 with microseconds, as the service prints `updated_on`. */
export function timestamp(ms: number): string {
  const at = Math.floor(ms); // a Date keeps whole milliseconds
  const whole = Math.floor(at / 1000);
  if (whole !== second) {
    prefix = new Date(whole * 1000).toISOString().slice(0, -5); // without ".000Z" (years past 9999 included)
    second = whole;
  }
  return `${prefix}.${String(at - whole * 1000).padStart(3, '0')}000Z`;
}

/** A status with its description from the references (codes.ts). */
export const statusOf = (code: number, at: number): StatusBody => ({ code, description: describe(code), updated_on: timestamp(at) });
