// Lower case: the pattern ignores case, and a parsed month is found by its lower-case name.
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

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

/** The three formats. */
function datePattern(): RegExp {
  const day = '(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat)';
  const month = `(${MONTHS.join('|')})`;
  const time = '(\\d{2}):(\\d{2}):(\\d{2})';
  const zone = '(?:\\s+(GMT|UTC|UT|Z|[+-]\\d{4}))?';
  return new RegExp(
    '^(?:' +
      // Sun, 06 Nov 1994 08:49:37 GMT   (RFC 1123; also a 1-digit day): groups 1-7
      `${day},\\s+(\\d{1,2})\\s+${month}\\s+(\\d{4})\\s+${time}${zone}|` +
      // Sunday, 06-Nov-94 08:49:37 GMT  (RFC 850): groups 8-14
      `(?:Sun|Mon|Tues|Wednes|Thurs|Fri|Satur)day,\\s+(\\d{1,2})-${month}-(\\d{2})\\s+${time}${zone}|` +
      // Sun Nov  6 08:49:37 1994        (asctime, no zone): groups 15-20
      `${day}\\s+${month}\\s+(\\d{1,2})\\s+${time}\\s+(\\d{4})` +
      ')$',
    'i',
  );
}

// Pure: a bundle that only signs drops it with parseHttpDate.
const DATE_PATTERN = /* @__PURE__ */ datePattern();

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
  const match = DATE_PATTERN.exec(value.trim());
  if (!match) return undefined;
  // Day, month, year, hours, minutes, seconds and zone, in that order, whichever format matched.
  const [d, mon, y, h, m, s, zone] = match[1] ? match.slice(1, 8) : match[8] ? match.slice(8, 15) : [match[16], match[15], match[20], match[17], match[18], match[19]];
  let year = Number(y);
  if (match[8]) year += year < 70 ? 2000 : 1900; // RFC 850's two-digit year
  const day = Number(d);
  const month = MONTHS.indexOf(mon!.toLowerCase());
  const hours = Number(h);
  const minutes = Number(m);
  const seconds = Number(s);
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  // Not Date.UTC: it reads years 0-99 as 1900-1999. Dates are parsed as written.
  const check = new Date(0);
  check.setUTCFullYear(year, month, day);
  check.setUTCHours(hours, minutes, Math.min(seconds, 59), 0);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month) return undefined; // 31 Feb etc.
  let offset = 0;
  if (zone?.length === 5) {
    // A numeric offset, +hhmm or -hhmm (the names GMT, UTC, UT and Z are shorter).
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(3));
    if (zh > 14 || zm > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  return check.getTime() - offset;
}
