// The headers of the request being answered, read once. With the raw headers a server adapter
// passes (`EmulatorEnv.rawHeaders`, Node), a Map of lower-case names made at the first read and
// kept in the request's context (verifyRequest reads such a Map as it is); every later read is a
// lookup. Otherwise (in-process fetch, other servers) the Request's own `headers`.
import type { EmulatorEnv } from '../types.js';

export type HeaderRecord = ReadonlyMap<string, string>;

/** The context variable that keeps the record. */
export interface HeaderVariables {
  headers?: HeaderRecord;
}

/** Any Hono context of the emulator's apps (they all carry {@link HeaderVariables}). */
export interface HeaderContext {
  env: EmulatorEnv | undefined;
  req: { raw: Request };
  get(key: 'headers'): HeaderRecord | undefined;
  set(key: 'headers', value: HeaderRecord): void;
}

/** The record of the request's headers, or undefined when the adapter gave no raw headers. */
export function headerRecordOf(c: HeaderContext): HeaderRecord | undefined {
  let record = c.get('headers');
  if (record === undefined && c.env?.rawHeaders) c.set('headers', (record = headerRecord(c.env.rawHeaders)));
  return record;
}

/** One header of the request (lower-case name), as `Headers.get` gives it; undefined when absent. */
export function headerOf(c: HeaderContext, name: string): string | undefined {
  const record = headerRecordOf(c);
  return record ? record.get(name) : (c.req.raw.headers.get(name) ?? undefined);
}

const isHttpWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** Strips leading and trailing HTTP whitespace (space, tab, CR, LF) as Headers does; nothing else (not String#trim's Unicode spaces). */
function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * Raw headers (name, value, name, value...) as a Map of lower-case names, repeated headers joined
 * with ", " as Headers joins them (HTTP/2 pseudo-headers left out, as the Node adapter does).
 */
export function headerRecord(raw: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name.startsWith(':')) continue;
    const value = trimHttpWhitespace(raw[i + 1]!);
    const prior = out.get(name);
    out.set(name, prior === undefined ? value : `${prior}, ${value}`);
  }
  return out;
}
