/**
 * Test numbers: the last four digits of a number choose a reproducible outcome. Any other number
 * is a mobile phone that receives everything.
 */
export interface Outcome {
  phoneType: { code: string; description: string };
  sms: number;
  voice: number;
  blocked: boolean;
}

export const TEST_NUMBERS: Record<string, Outcome & { meaning: string }> = {
  '0001': { meaning: 'undeliverable: SMS 207, call not answered', phoneType: { code: '2', description: 'MOBILE' }, sms: 207, voice: 101, blocked: false },
  '0002': { meaning: 'blocked by the service: SMS 230, call 130', phoneType: { code: '2', description: 'MOBILE' }, sms: 230, voice: 130, blocked: true },
  '0003': { meaning: 'VOIP number (PhoneID phone_type 5)', phoneType: { code: '5', description: 'VOIP' }, sms: 200, voice: 100, blocked: false },
  '0004': { meaning: 'invalid number: SMS 507, call 104, PhoneID INVALID', phoneType: { code: '8', description: 'INVALID' }, sms: 507, voice: 104, blocked: false },
  '0005': { meaning: 'landline: SMS 222 not supported, call answered', phoneType: { code: '1', description: 'FIXED_LINE' }, sms: 222, voice: 100, blocked: false },
  '0006': { meaning: 'prepaid mobile, line busy for calls', phoneType: { code: '3', description: 'PREPAID' }, sms: 200, voice: 107, blocked: false },
};

const MOBILE: Outcome = { phoneType: { code: '2', description: 'MOBILE' }, sms: 200, voice: 100, blocked: false };

export const outcomeOf = (phoneNumber: string): Outcome => TEST_NUMBERS[phoneNumber.slice(-4)] ?? MOBILE;
