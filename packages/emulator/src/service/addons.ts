// PhoneID add-ons ("identity attributes", service.md §4.3): one section per requested
// key, each with its own status (2800 success, 2801 invalid parameter, 2803 out of coverage, 2804
// not applicable, 2805 no information, 2807 some parameters invalid). Values are deterministic
// from the number; the test numbers (numbers.ts) choose the interesting ones.
import type { Country } from './country.js';
import { hash } from './hash.js';
import { outcomeOf } from './numbers.js';
import { statusOf } from './status.js';

type Section = Record<string, unknown> & { status: { code: number; description: string } };

export interface AddonContext {
  addons: unknown;
  consent: unknown;
  now: number;
  country: Country | undefined;
  carrier: string | null;
}

const DAY = 86_400_000;
const FIRST_NAMES = ['Alex', 'Sam', 'Jordan', 'Taylor'];

const status = (code: number, at: number) => {
  const { code: c, description } = statusOf(code, at);
  return { code: c, description };
};
const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The contact of a number (what `contact` answers and `contact_match` compares with). */
export function contactOf(phoneNumber: string, country: Country | undefined) {
  const h = hash(phoneNumber);
  const first = FIRST_NAMES[h % FIRST_NAMES.length]!;
  return {
    first_name: first,
    last_name: 'Example',
    address1: `${100 + (h % 900)} Main St`,
    address2: null,
    address3: null,
    address4: null,
    city: null,
    state_province: null,
    zip_postal_code: null,
    country: country?.iso2 ?? null,
    email_address: `${first.toLowerCase()}@example.com`,
  };
}

const score = (given: unknown, known: string) => (typeof given !== 'string' || given === '' ? -1 : given.trim().toLowerCase() === known.toLowerCase() ? 100 : 0);

/** Builds one section; `undefined` inputs are the request's object for the key. */
type Builder = (phone: string, input: Record<string, unknown>, ctx: AddonContext) => Section;

const mobileOnly = (phone: string) => ['MOBILE', 'PREPAID'].includes(outcomeOf(phone).phoneType.description);
const invalid = (phone: string) => outcomeOf(phone).phoneType.description === 'INVALID';
const hasConsent = (consent: unknown) => isObject(consent) && typeof consent.method === 'number';

const BUILDERS: Record<string, Builder> = {
  contact: (phone, _i, ctx) => (invalid(phone) ? { status: status(2805, ctx.now) } : { ...contactOf(phone, ctx.country), status: status(2800, ctx.now) }),
  contact_plus: (phone, input, ctx) => {
    if (!hasConsent(ctx.consent) || typeof input.billing_postal_code !== 'string') return { status: status(2807, ctx.now) };
    return invalid(phone) ? { status: status(2805, ctx.now) } : { ...contactOf(phone, ctx.country), status: status(2800, ctx.now) };
  },
  contact_match: (phone, input, ctx) => {
    if (invalid(phone)) return { status: status(2805, ctx.now) };
    const known = contactOf(phone, ctx.country);
    return {
      first_name_score: score(input.first_name, known.first_name),
      last_name_score: score(input.last_name, known.last_name),
      address_score: score(input.address, known.address1),
      status: status(2800, ctx.now),
    };
  },
  number_deactivation: (phone, input, ctx) => {
    if (invalid(phone)) return { status: status(2805, ctx.now) };
    if (input.last_verified !== undefined && (typeof input.last_verified !== 'string' || Number.isNaN(Date.parse(input.last_verified)))) return { status: status(2807, ctx.now) };
    const deactivated = outcomeOf(phone).recycled ? ctx.now - 30 * DAY : null;
    const section: Section = {
      carrier_name: ctx.carrier,
      last_deactivated: deactivated === null ? null : date(deactivated),
      tracking_since: '2016-01-01',
      status: status(2800, ctx.now),
    };
    if (typeof input.last_verified === 'string') {
      section.recycled_since_last_verification = deactivated !== null && Date.parse(input.last_verified) < deactivated ? 'recycled' : 'not_recycled';
    }
    return section;
  },
  subscriber_status: (phone, _i, ctx) => {
    if (!mobileOnly(phone)) return { status: status(2804, ctx.now) };
    const prepaid = outcomeOf(phone).phoneType.description === 'PREPAID';
    const tenure = 12 + (hash(phone) % 48);
    return {
      account_type: 'individual',
      account_tenure_min: tenure,
      account_tenure_max: tenure + 12,
      primary_account_holder: 'Y',
      account_status: 'active',
      contract_type: prepaid ? 'prepaid' : 'postpaid',
      account_activation_date: date(ctx.now - tenure * 30 * DAY),
      status: status(2800, ctx.now),
    };
  },
  sim_swap: (phone, _i, ctx) => {
    if (!mobileOnly(phone)) return { status: status(2804, ctx.now) };
    if (outcomeOf(phone).recycled) return { swap_date: date(ctx.now), swap_time: new Date(ctx.now).toISOString().slice(11, 19), risk_indicator: 4, status: status(2800, ctx.now) };
    return { swap_date: null, swap_time: null, risk_indicator: 1, status: status(2800, ctx.now) };
  },
  porting_status: (phone, _i, ctx) => (invalid(phone) ? { status: status(2805, ctx.now) } : { mcc_current: null, mnc_current: null, ported: outcomeOf(phone).recycled, status: status(2800, ctx.now) }),
  porting_history: (phone, input, ctx) => {
    if (ctx.country?.iso2 !== 'US') return { status: status(2803, ctx.now) };
    if (invalid(phone)) return { status: status(2805, ctx.now) };
    const days = input.past_x_days === undefined ? 90 : input.past_x_days;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 1) return { status: status(2807, ctx.now) };
    const ported = outcomeOf(phone).recycled && days >= 10;
    return {
      carrier_current: ctx.carrier,
      carrier_previous: ported ? 'Previous Carrier' : null,
      mcc_carrier_current: '310',
      mcc_carrier_previous: ported ? '311' : null,
      mnc_carrier_current: '004',
      mnc_carrier_previous: ported ? '480' : null,
      phone_type_current: outcomeOf(phone).phoneType.description,
      phone_type_previous: ported ? outcomeOf(phone).phoneType.description : null,
      port_date: ported ? date(ctx.now - 10 * DAY) : null,
      number_of_portings: ported ? '1' : '0',
      status: status(2800, ctx.now),
    };
  },
  call_forward_detection: (phone, _i, ctx) => {
    if (!hasConsent(ctx.consent)) return { status: status(2807, ctx.now) };
    if (invalid(phone)) return { status: status(2805, ctx.now) };
    const forwarded = outcomeOf(phone).forwarded;
    return { call_forward_enabled: String(forwarded), call_forward_type: forwarded ? 'conditional' : null, call_forward_condition: forwarded ? 'busy' : null, status: status(2800, ctx.now) };
  },
  // Their fields are not documented: the emulator answers "no information".
  age_verify: (_p, _i, ctx) => ({ status: status(2805, ctx.now) }),
  breached_data: (_p, _i, ctx) => ({ status: status(2805, ctx.now) }),
  device_info: (_p, _i, ctx) => ({ make: null, model: null, imei: null, status: status(2805, ctx.now) }),
};

/** Add-on names the emulator knows (the documented ones). */
/**
 * The sections of the requested add-ons. An unknown key, or a value that is not an object, gets
 * a section with 2801 "Invalid addons parameter"; consent-bound add-ons (contact_plus,
 * call_forward_detection) without `consent.method` get 2807.
 */
export function addonSections(phoneNumber: string, ctx: AddonContext): Record<string, Section> {
  const sections: Record<string, Section> = {};
  if (!isObject(ctx.addons)) return sections;
  for (const [name, input] of Object.entries(ctx.addons)) {
    // Only names that can be an add-on become a section (never `__proto__` and the like).
    if (!/^[a-z][a-z0-9_]{0,39}$/.test(name)) continue;
    const build = Object.hasOwn(BUILDERS, name) ? BUILDERS[name] : undefined;
    sections[name] = build && isObject(input) ? build(phoneNumber, input, ctx) : { status: status(2801, ctx.now) };
  }
  return sections;
}
