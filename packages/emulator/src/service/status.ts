import { describe } from './codes.js';

/** The `status` object of every answer and callback. */
export interface StatusBody {
  code: number;
  description: string;
  updated_on: string;
}

/** RFC 3339 with microseconds, as the service prints `updated_on` (years past 9999 as toISOString writes them). */
export function timestamp(ms: number): string {
  return `${new Date(Math.floor(ms)).toISOString().slice(0, -1)}000Z`;
}

/** A status with its description from the references (codes.ts). */
export const statusOf = (code: number, at: number): StatusBody => ({ code, description: describe(code), updated_on: timestamp(at) });
