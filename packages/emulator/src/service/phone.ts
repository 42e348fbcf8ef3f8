/**
 * The one way the emulator compares phone numbers in look-ups (outbox, journal, transactions,
 * `waitFor`): what the client accepts, "+1 555 555 1234", "1 (555) 555-1234" or "1.555.555.1234",
 * is the number 15555551234. Spaces, dashes, dots and parentheses go, then a leading "+". An email
 * address (the Verify API's email method) is compared in lower case.
 */
export function phoneKey(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed.includes('@')) return /^[^\s@]+@[^\s@]+$/.test(trimmed) ? trimmed.toLowerCase() : undefined;
  const digits = trimmed.replace(/[\s().-]/g, '').replace(/^\+/, '');
  return /^\d{1,15}$/.test(digits) ? digits : undefined;
}

/** A predicate: does a stored number (or email address) match what was asked for, in any accepted format? */
export function phoneMatcher(query: string): (stored: string) => boolean {
  const wanted = phoneKey(query) ?? query;
  return (stored) => stored === wanted || (phoneKey(stored) ?? stored) === wanted;
}

/** What a look-up query parameter must be, for error messages. */
export const PHONE_QUERY_HINT =
  'a phone number with its country code (spaces, dashes, dots, parentheses and a leading "+" are allowed, e.g. "+1 555 555 1234") or an email address';
