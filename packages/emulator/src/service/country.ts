// Countries and numbering plans of every calling code, from maintained data packages rather than a
// hand-kept list: libphonenumber-js (its "min" metadata: calling codes, regions, national
// prefixes, possible lengths) and countries-list (ISO 3166 alpha-3 codes and English names; two
// small JSON files, inlined into the build).
import { Metadata, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import ISO3 from 'countries-list/minimal/countries.2to3.min.json';
import NAMES from 'countries-list/minimal/countries.en.min.json';

export interface Country {
  /** The calling code, e.g. "44". */
  code: string;
  /** ISO 3166 alpha-2 of the region; null for non-geographic codes (800, 808, 870, 881-888, 979). */
  iso2: string | null;
  iso3: string | null;
  name: string | null;
  /** Lengths a national number may have in this region (or the code's non-geographic plan). */
  lengths: number[];
}

/** The parts of libphonenumber-js's Metadata used here (its typings declare fewer of its methods). */
interface MetadataApi {
  hasCallingCode(code: string): boolean;
  isNonGeographicCallingCode(code: string): boolean;
  getCountryCodesForCallingCode(code: string): string[] | undefined;
  selectNumberingPlan(selector: string): void;
  numberingPlan: { possibleLengths(): number[] } | undefined;
  metadata: { country_calling_codes: Record<string, string[]> };
}

const metadata = new Metadata() as unknown as MetadataApi;
const iso3 = ISO3 as Record<string, string>;
const names = NAMES as Record<string, string>;

/** The calling code a complete number starts with (codes are prefix-free: 1 to 3 digits). */
export function callingCodeOf(phoneNumber: string): string | undefined {
  for (let length = 1; length <= 3; length++) {
    const code = phoneNumber.slice(0, length);
    if (metadata.hasCallingCode(code)) return code;
  }
  return undefined;
}

function plan(selector: string, code: string): Country {
  metadata.selectNumberingPlan(selector);
  const np = metadata.numberingPlan!;
  const geographic = /^[A-Z]{2}$/.test(selector);
  return {
    code,
    iso2: geographic ? selector : null,
    iso3: geographic ? (iso3[selector] ?? null) : null,
    name: geographic ? (names[selector] ?? null) : null,
    lengths: [...np.possibleLengths()],
  };
}

/**
 * The country of a complete number (digits with the calling code): the region the number belongs
 * to when its numbering plan says so (e.g. +1 416... is Canada), else the main region of the
 * calling code (US for 1, GB for 44, RU for 7). Undefined when no calling code matches.
 */
export function countryOf(phoneNumber: string): Country | undefined {
  const code = callingCodeOf(phoneNumber);
  if (code === undefined) return undefined;
  if (metadata.isNonGeographicCallingCode(code)) return plan(code, code);
  const region = parsePhoneNumberFromString(`+${phoneNumber}`)?.country ?? metadata.getCountryCodesForCallingCode(code)?.[0];
  return region ? plan(region, code) : undefined;
}

/** `numbering.cleansing.call` / `.sms` of PhoneID (service.md §4.1, cleansed codes §9.2). */
export interface Cleansing {
  country_code: string | null;
  phone_number: string;
  cleansed_code: 100 | 101 | 103 | 105;
  min_length: number | null;
  max_length: number | null;
}

/**
 * Cleanses a complete number the way the service's codes describe (service.md §16.2):
 * - 101: changed to ensure completion: the national trunk prefix written after the calling code
 *   (44 0 7911..., 49 0 30...) is removed, as the numbering plan's parsing rules say;
 * - 100: the national number has a length the numbering plan allows; unchanged;
 * - 105: too long or too short otherwise (e.g. one digit too many that is not a trunk prefix):
 *   the number is left as it is, since no digit can be known to be the extra one;
 * - 103: no calling code matches; no area can be found.
 */
export function cleanse(phoneNumber: string, country: Country | undefined): Cleansing {
  if (!country) return { country_code: null, phone_number: phoneNumber, cleansed_code: 103, min_length: null, max_length: null };
  const national = phoneNumber.slice(country.code.length);
  const lengths = country.lengths;
  const base = { country_code: country.code, min_length: Math.min(...lengths), max_length: Math.max(...lengths) };
  const parsed = parsePhoneNumberFromString(`+${phoneNumber}`)?.nationalNumber;
  if (parsed !== undefined && parsed !== national && national.endsWith(parsed) && lengths.includes(parsed.length)) {
    return { ...base, phone_number: parsed, cleansed_code: 101 };
  }
  if (lengths.includes(national.length)) return { ...base, phone_number: national, cleansed_code: 100 };
  return { ...base, phone_number: national, cleansed_code: 105 };
}
