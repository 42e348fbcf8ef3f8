import { outcomeOf } from './numbers.js';

interface Country {
  code: string;
  name: string;
  iso2: string;
  iso3: string;
  zone: string;
  offset: string;
  length: number;
  carriers: string[];
  cities: string[];
}

const COUNTRIES: Country[] = [
  { code: '1', name: 'United States', iso2: 'US', iso3: 'USA', zone: 'America/Chicago', offset: '-6', length: 10, carriers: ['Verizon Wireless', 'T-Mobile USA', 'AT&T Wireless'], cities: ['Odessa', 'Austin', 'Denver'] },
  { code: '44', name: 'United Kingdom', iso2: 'GB', iso3: 'GBR', zone: 'Europe/London', offset: '0', length: 10, carriers: ['EE', 'Vodafone UK', 'O2 UK'], cities: ['London', 'Leeds', 'Bristol'] },
  { code: '49', name: 'Germany', iso2: 'DE', iso3: 'DEU', zone: 'Europe/Berlin', offset: '+1', length: 11, carriers: ['Telekom Deutschland', 'Vodafone GmbH', 'Telefonica Germany'], cities: ['Berlin', 'Hamburg', 'Munich'] },
  { code: '33', name: 'France', iso2: 'FR', iso3: 'FRA', zone: 'Europe/Paris', offset: '+1', length: 9, carriers: ['Orange France', 'SFR', 'Bouygues Telecom'], cities: ['Paris', 'Lyon', 'Lille'] },
  { code: '34', name: 'Spain', iso2: 'ES', iso3: 'ESP', zone: 'Europe/Madrid', offset: '+1', length: 9, carriers: ['Movistar', 'Vodafone Spain', 'Orange Spain'], cities: ['Madrid', 'Sevilla', 'Valencia'] },
  { code: '39', name: 'Italy', iso2: 'IT', iso3: 'ITA', zone: 'Europe/Rome', offset: '+1', length: 10, carriers: ['TIM', 'Vodafone Italia', 'WindTre'], cities: ['Rome', 'Milan', 'Turin'] },
  { code: '55', name: 'Brazil', iso2: 'BR', iso3: 'BRA', zone: 'America/Sao_Paulo', offset: '-3', length: 11, carriers: ['Vivo', 'Claro Brasil', 'TIM Brasil'], cities: ['Sao Paulo', 'Rio de Janeiro', 'Recife'] },
  { code: '61', name: 'Australia', iso2: 'AU', iso3: 'AUS', zone: 'Australia/Sydney', offset: '+10', length: 9, carriers: ['Telstra', 'Optus', 'Vodafone AU'], cities: ['Sydney', 'Melbourne', 'Perth'] },
  { code: '81', name: 'Japan', iso2: 'JP', iso3: 'JPN', zone: 'Asia/Tokyo', offset: '+9', length: 10, carriers: ['NTT Docomo', 'KDDI', 'SoftBank'], cities: ['Tokyo', 'Osaka', 'Nagoya'] },
  { code: '91', name: 'India', iso2: 'IN', iso3: 'IND', zone: 'Asia/Kolkata', offset: '+5:30', length: 10, carriers: ['Jio', 'Airtel', 'Vi'], cities: ['Mumbai', 'Delhi', 'Bengaluru'] },
];

/** FNV-1a: a stable small hash, so the same number always gets the same answers. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function countryOf(phoneNumber: string): Country | undefined {
  return COUNTRIES.find((c) => phoneNumber.startsWith(c.code) && phoneNumber.length - c.code.length === c.length)
    ?? COUNTRIES.find((c) => phoneNumber.startsWith(c.code));
}

/** The PhoneID answer for a number (without reference_id and status), deterministic. */
export function phoneIdOf(phoneNumber: string, addons: Record<string, unknown> | undefined) {
  const country = countryOf(phoneNumber);
  const h = hash(phoneNumber);
  const national = country ? phoneNumber.slice(country.code.length) : phoneNumber;
  const outcome = outcomeOf(phoneNumber);
  const cleansing = { country_code: country?.code ?? null, phone_number: national, cleansed_code: country ? 100 : 103, min_length: country?.length ?? null, max_length: country?.length ?? null };
  const body: Record<string, unknown> = {
    numbering: {
      original: { complete_phone_number: phoneNumber, country_code: country?.code ?? null, phone_number: national },
      cleansing: { call: cleansing, sms: cleansing },
    },
    phone_type: outcome.phoneType,
    location: {
      city: country ? country.cities[h % country.cities.length] : null,
      state: null,
      zip: null,
      metro_code: null,
      county: null,
      country: { name: country?.name ?? null, iso2: country?.iso2 ?? null, iso3: country?.iso3 ?? null },
      coordinates: { latitude: null, longitude: null },
      time_zone: { name: country?.zone ?? null, utc_offset_min: country?.offset ?? null, utc_offset_max: country?.offset ?? null },
    },
    carrier: { name: country && outcome.phoneType.description !== 'INVALID' ? country.carriers[(h >>> 3) % country.carriers.length] : null },
    blocklisting: outcome.blocked ? { blocked: true, block_code: 1, block_description: 'Blocked' } : { blocked: false, block_code: 0, block_description: 'Not blocked' },
  };
  if (addons && typeof addons === 'object' && 'contact' in addons) {
    const first = ['Alex', 'Sam', 'Jordan', 'Taylor'][h % 4];
    body.contact = {
      first_name: first, last_name: 'Example', address1: `${100 + (h % 900)} Main St`, address2: null, address3: null, address4: null,
      city: body.location && country ? country.cities[0] : null, state_province: null, zip_postal_code: null,
      country: country?.iso2 ?? null, email_address: `${first!.toLowerCase()}@example.com`,
      status: { code: 2800, description: 'Request successfully completed' },
    };
  }
  return { body, partial: !country };
}
