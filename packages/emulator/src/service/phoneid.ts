import { addonSections } from './addons.js';
import { cleanse, countryOf, type Country } from './country.js';
import { hash } from './hash.js';
import { outcomeOf } from './numbers.js';

/** A little colour for a few countries; elsewhere city and time zone are null, as the service often answers outside North America. */
const LOCAL: Record<string, { zone: string; offset: string; carriers: string[]; cities: string[] }> = {
  US: { zone: 'America/Chicago', offset: '-6', carriers: ['Verizon Wireless', 'T-Mobile USA', 'AT&T Wireless'], cities: ['Odessa', 'Austin', 'Denver'] },
  CA: { zone: 'America/Toronto', offset: '-5', carriers: ['Rogers', 'Bell Mobility', 'Telus'], cities: ['Toronto', 'Montreal', 'Vancouver'] },
  GB: { zone: 'Europe/London', offset: '0', carriers: ['EE', 'Vodafone UK', 'O2 UK'], cities: ['London', 'Leeds', 'Bristol'] },
  DE: { zone: 'Europe/Berlin', offset: '+1', carriers: ['Telekom Deutschland', 'Vodafone GmbH', 'Telefonica Germany'], cities: ['Berlin', 'Hamburg', 'Munich'] },
  FR: { zone: 'Europe/Paris', offset: '+1', carriers: ['Orange France', 'SFR', 'Bouygues Telecom'], cities: ['Paris', 'Lyon', 'Lille'] },
  ES: { zone: 'Europe/Madrid', offset: '+1', carriers: ['Movistar', 'Vodafone Spain', 'Orange Spain'], cities: ['Madrid', 'Sevilla', 'Valencia'] },
  IT: { zone: 'Europe/Rome', offset: '+1', carriers: ['TIM', 'Vodafone Italia', 'WindTre'], cities: ['Rome', 'Milan', 'Turin'] },
  BR: { zone: 'America/Sao_Paulo', offset: '-3', carriers: ['Vivo', 'Claro Brasil', 'TIM Brasil'], cities: ['Sao Paulo', 'Rio de Janeiro', 'Recife'] },
  AU: { zone: 'Australia/Sydney', offset: '+10', carriers: ['Telstra', 'Optus', 'Vodafone AU'], cities: ['Sydney', 'Melbourne', 'Perth'] },
  JP: { zone: 'Asia/Tokyo', offset: '+9', carriers: ['NTT Docomo', 'KDDI', 'SoftBank'], cities: ['Tokyo', 'Osaka', 'Nagoya'] },
  IN: { zone: 'Asia/Kolkata', offset: '+5:30', carriers: ['Jio', 'Airtel', 'Vi'], cities: ['Mumbai', 'Delhi', 'Bengaluru'] },
};

/** The carrier of a number: deterministic, from the few named above or a generic name per country. */
export function carrierOf(phoneNumber: string, country: Country | undefined): string | null {
  if (!country || outcomeOf(phoneNumber).phoneType.description === 'INVALID') return null;
  const local = country.iso2 ? LOCAL[country.iso2] : undefined;
  if (local) return local.carriers[(hash(phoneNumber) >>> 3) % local.carriers.length]!;
  return `${country.name ?? `International (+${country.code})`} Mobile`;
}

export interface PhoneIdInput {
  /** The `addons` object of a JSON body. */
  addons?: unknown;
  /** Top-level `consent` of a JSON body. */
  consent?: unknown;
  now: number;
}

/**
 * The PhoneID answer for a number (without reference_id and status), deterministic, and whether
 * it is partial (301): no calling code matches, or an add-on section did not succeed (2800).
 */
export function phoneIdOf(phoneNumber: string, input: PhoneIdInput) {
  const country = countryOf(phoneNumber);
  const h = hash(phoneNumber);
  const cleansing = cleanse(phoneNumber, country);
  const local = country?.iso2 ? LOCAL[country.iso2] : undefined;
  const outcome = outcomeOf(phoneNumber);
  const body: Record<string, unknown> = {
    numbering: {
      original: { complete_phone_number: phoneNumber, country_code: country?.code ?? null, phone_number: country ? phoneNumber.slice(country.code.length) : phoneNumber },
      cleansing: { call: cleansing, sms: { ...cleansing } },
    },
    phone_type: outcome.phoneType,
    location: {
      city: local ? local.cities[h % local.cities.length] : null,
      state: null,
      zip: null,
      metro_code: null,
      county: null,
      country: { name: country?.name ?? null, iso2: country?.iso2 ?? null, iso3: country?.iso3 ?? null },
      coordinates: { latitude: null, longitude: null },
      time_zone: { name: local?.zone ?? null, utc_offset_min: local?.offset ?? null, utc_offset_max: local?.offset ?? null },
    },
    carrier: { name: carrierOf(phoneNumber, country) },
    blocklisting: outcome.blocked ? { blocked: true, block_code: 1, block_description: 'Blocked' } : { blocked: false, block_code: 0, block_description: 'Not blocked' },
  };
  let partial = !country;
  if (input.addons !== undefined) {
    const sections = addonSections(phoneNumber, { addons: input.addons, consent: input.consent, now: input.now, country, carrier: carrierOf(phoneNumber, country) });
    for (const [name, section] of Object.entries(sections)) {
      body[name] = section;
      if ((section.status as { code: number }).code !== 2800) partial = true;
    }
  }
  return { body, partial, country };
}
