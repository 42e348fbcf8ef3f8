/**
 * Test numbers: the last four digits of a number choose a reproducible outcome in every product.
 * Any other number is a post-paid mobile phone that receives everything. The README's table is
 * this one.
 */
export interface Outcome {
  phoneType: { code: string; description: string };
  /** Final SMS status (Messaging, SMS Verify, Bulk SMS, the Verify API's sms method). */
  sms: number;
  /** Final call status (Voice, Voice Verify). */
  voice: number;
  /** On the service's blocklist (PhoneID blocklisting). */
  blocked: boolean;
  /** Messaging apps (the Verify API's whatsapp, viber and rcs methods) reach it. */
  apps: boolean;
  /** A forwarded line: Voice Verify call_forwarding, PhoneID call_forward_detection. */
  forwarded: boolean;
  /** SIM swapped today, ported recently, deactivated and recycled last month (PhoneID add-ons). */
  recycled: boolean;
  /** Risk score 1-1000 (Score, Intelligence); undefined: a low score derived from the number. */
  risk?: number;
  /** PhoneID Live; undefined: active, reachable, not roaming. */
  live?: { subscriber_status: string; device_status: string; roaming: string; roaming_country: string | null; roaming_country_iso2: string | null };
}

const MOBILE_TYPE = { code: '2', description: 'MOBILE' };
const base = { phoneType: MOBILE_TYPE, sms: 200, voice: 100, blocked: false, apps: true, forwarded: false, recycled: false };

export const TEST_NUMBERS: Record<string, Outcome & { meaning: string }> = {
  '0001': { ...base, meaning: 'undeliverable: SMS 207, call 101 not answered, Live device UNREACHABLE; messaging apps still reach it', sms: 207, voice: 101, live: { subscriber_status: 'ACTIVE', device_status: 'UNREACHABLE', roaming: 'NOT_ROAMING', roaming_country: null, roaming_country_iso2: null } },
  '0002': { ...base, meaning: 'blocked by the service: SMS 230, call 130, PhoneID blocklisted, risk 950 high/block', sms: 230, voice: 130, blocked: true, apps: false, risk: 950 },
  '0003': { ...base, meaning: 'VOIP number (PhoneID phone_type 5), risk 700 medium-high/block', phoneType: { code: '5', description: 'VOIP' }, risk: 700 },
  '0004': { ...base, meaning: 'invalid number: SMS 507, call 104, PhoneID INVALID, no Live data (-60001), risk 900 high/block', phoneType: { code: '8', description: 'INVALID' }, sms: 507, voice: 104, apps: false, risk: 900 },
  '0005': { ...base, meaning: 'landline: SMS 222 not supported, calls answered (Voice Verify works), no apps, risk 50 low/allow', phoneType: { code: '1', description: 'FIXED_LINE' }, sms: 222, apps: false, risk: 50, live: { subscriber_status: 'ACTIVE', device_status: 'UNAVAILABLE', roaming: 'UNAVAILABLE', roaming_country: null, roaming_country_iso2: null } },
  '0006': { ...base, meaning: 'prepaid mobile, roaming in Mexico, line busy for calls (107), risk 500 medium/flag', phoneType: { code: '3', description: 'PREPAID' }, voice: 107, risk: 500, live: { subscriber_status: 'ACTIVE', device_status: 'REACHABLE', roaming: 'ROAMING', roaming_country: 'Mexico', roaming_country_iso2: 'MX' } },
  '0007': { ...base, meaning: 'forwarded line: Voice Verify call_forwarding FORWARDED (130 with block), call_forward_detection enabled, risk 450 medium/flag', forwarded: true, risk: 450 },
  '0008': { ...base, meaning: 'SIM swapped today, ported 10 days ago, deactivated and recycled 30 days ago, risk 750 medium-high/block', recycled: true, risk: 750 },
};

const MOBILE: Outcome = { ...base };

export const outcomeOf = (phoneNumber: string): Outcome => TEST_NUMBERS[phoneNumber.slice(-4)] ?? MOBILE;
