const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * RFC 1123 date in GMT, exactly as `Date.prototype.toUTCString()` prints it.
 *
 * @example
 * ```ts
 * import { formatHttpDate } from '@x/auth/protocol';
 *
 * formatHttpDate(new Date(0)); // 'Thu, 01 Jan 1970 00:00:00 GMT'
 * ```
 */
export const formatHttpDate = (date: Date): string => date.toUTCString();

/** Built on first use, so that code which only signs does not carry them. */
let patterns: RegExp[] | undefined;
function datePatterns(): RegExp[] {
  const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
  const ZONE = '(?:\\s+(GMT|UTC|UT|Z|[+-]\\d{4}))?';
  return (patterns ??= [
    // Sun, 06 Nov 1994 08:49:37 GMT   (RFC 1123; also a 1-digit day)
    new RegExp(`^(${DAYS.join('|')}),\\s+(\\d{1,2})\\s+(${MONTHS.join('|')})\\s+(\\d{4})\\s+${TIME}${ZONE}$`, 'i'),
    // Sunday, 06-Nov-94 08:49:37 GMT  (RFC 850)
    new RegExp(`^(${LONG_DAYS.join('|')}),\\s+(\\d{1,2})-(${MONTHS.join('|')})-(\\d{2})\\s+${TIME}${ZONE}$`, 'i'),
    // Sun Nov  6 08:49:37 1994        (asctime, no zone)
    new RegExp(`^(${DAYS.join('|')})\\s+(${MONTHS.join('|')})\\s+(\\d{1,2})\\s+${TIME}\\s+(\\d{4})$`, 'i'),
  ]);
}

const monthIndex = (name: string) => MONTHS.findIndex((m) => m.toLowerCase() === name.toLowerCase());

function build(year: number, month: number, day: number, h: string, m: string, s: string, zone?: string): number | undefined {
  const hours = Number(h);
  const minutes = Number(m);
  const seconds = Number(s);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  // Not Date.UTC: it reads years 0-99 as 1900-1999. Dates are parsed as written.
  const check = new Date(0);
  check.setUTCFullYear(year, month, day);
  check.setUTCHours(hours, minutes, Math.min(seconds, 59), 0);
  const ms = check.getTime();
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month) return undefined; // 31 Feb etc.
  let offset = 0;
  if (zone && /^[+-]\d{4}$/.test(zone)) {
    const sign = zone[0] === '-' ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(3, 5));
    if (zh > 14 || zm > 59) return undefined;
    offset = sign * (zh * 60 + zm) * 60_000;
  }
  return ms - offset;
}

/**
 * Parses the three date formats of RFC 2616 §3.3.1 (RFC 1123, RFC 850, asctime). A time without a
 * zone is GMT; GMT, UTC, UT, Z and numeric offsets are accepted. Returns epoch milliseconds, or
 * undefined for anything else. Never throws.
 *
 * @example
 * ```ts
 * import { parseHttpDate } from '@x/auth/protocol';
 *
 * parseHttpDate('Thu, 01 Jan 1970 00:00:00 GMT'); // 0
 * parseHttpDate('yesterday');                     // undefined
 * ```
 */
export function parseHttpDate(value: string): number | undefined {
  if (typeof value !== 'string' || value.length > 64) return undefined;
  const text = value.trim();
  const [RFC1123, RFC850, ASCTIME] = datePatterns() as [RegExp, RegExp, RegExp];
  let match = RFC1123.exec(text);
  if (match) return build(Number(match[4]), monthIndex(match[3]!), Number(match[2]), match[5]!, match[6]!, match[7]!, match[8]);
  match = RFC850.exec(text);
  if (match) {
    const yy = Number(match[4]);
    return build(yy < 70 ? 2000 + yy : 1900 + yy, monthIndex(match[3]!), Number(match[2]), match[5]!, match[6]!, match[7]!, match[8]);
  }
  match = ASCTIME.exec(text);
  if (match) return build(Number(match[7]), monthIndex(match[2]!), Number(match[3]), match[4]!, match[5]!, match[6]!);
  return undefined;
}
