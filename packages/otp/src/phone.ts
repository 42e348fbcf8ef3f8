/**
 * Phone numbers with libphonenumber-js: the country of a number, for the guard's country lists,
 * limits and pumping detector. On its own entry so that the core stays small.
 *
 * @packageDocumentation
 * @module @x/otp/phone
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * The country (ISO 3166 alpha-2) of a number given as digits with the country code (a leading "+"
 * is allowed): its own region when the numbering plan tells it, else the main country of its
 * calling code (so +1 555 ... counts as US); undefined for non-geographic codes (satellite,
 * international networks) and what is not a number.
 *
 * @example
 * ```ts
 * import { createGuard } from '@x/otp';
 * import { countryOf } from '@x/otp/phone';
 *
 * countryOf('447400123456'); // 'GB'
 * const guard = createGuard({ countryOf, countries: { allow: ['GB', 'IE', 'FR'] } });
 * ```
 */
export function countryOf(phoneNumber: string): string | undefined {
  if (typeof phoneNumber !== 'string') return undefined;
  const parsed = parsePhoneNumberFromString(phoneNumber.startsWith('+') ? phoneNumber : `+${phoneNumber}`);
  return parsed ? parsed.country ?? parsed.getPossibleCountries()[0] : undefined;
}
