// Phone numbers as the guard and the flow key them: the canonical E.164 number the service would
// deliver to, whatever the spelling (libphonenumber-js: trunk prefixes, separators, non-ASCII digits).
import { parseIncompletePhoneNumber, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';

/** A number in canonical form: its digits with the country code (E.164 without "+"), and its country when the numbering plan tells it. */
export interface CanonicalNumber {
  digits: string;
  country: string | undefined;
}

/** Longest input read: a number with separators and a country code fits well within it. */
const MAX_INPUT = 64;

/**
 * The canonical form of a number, or undefined when it is not a possible number (wrong length for
 * its country, an extension, letters, nothing to parse). A number with "+" (or "tel:+") is read as
 * international; one without, as national in `defaultCountry` when given (which also reads an
 * international prefix such as "00"), else as digits with the country code. A trunk prefix written
 * after the country code ("+44 (0)7700 900123") is dropped where the plan says it is one, and kept
 * where it is part of the number (Italy).
 */
export function canonicalNumber(value: unknown, defaultCountry?: string): CanonicalNumber | undefined {
  if (typeof value !== 'string' || value.length > MAX_INPUT) return undefined;
  const text = value.trim().replace(/\uFF0B/g, '+'); // a full-width plus is a plus
  const international = /^(tel:)?\s*\+/i.test(text);
  const parsed = international || defaultCountry
    ? parsePhoneNumberFromString(text, international ? undefined : (defaultCountry as CountryCode))
    : parsePhoneNumberFromString(`+${parseIncompletePhoneNumber(text)}`);
  if (!parsed || parsed.ext || !parsed.isPossible()) return undefined;
  return { digits: parsed.number.slice(1), country: parsed.country ?? parsed.getPossibleCountries()[0] };
}

/** What the user typed as a code, as ASCII digits (any script's digits; spaces and dashes dropped), or undefined. */
export function typedDigits(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 32) return undefined;
  const digits = parseIncompletePhoneNumber(value.replace(/[\s-]/g, ''));
  return /^\d{3,10}$/.test(digits) && digits.length === value.replace(/[\s-]/g, '').length ? digits : undefined;
}
