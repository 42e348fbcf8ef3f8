/** A parameter error in both code families: positive (Messaging, Voice, PhoneID) and negative (Verify). */
export interface ParamError {
  positive: number;
  negative: number;
  description: string;
}

export type Params = Record<string, string | undefined>;

const missing = (name: string, positive: number): ParamError => ({
  positive, negative: -10001, description: `Missing required parameter ${name}.`,
});
const invalid = (name: string, positive: number): ParamError => ({
  positive, negative: -10001, description: `Invalid value for parameter ${name}.`,
});

export const PHONE = /^\d{8,15}$/;
export const REFERENCE_ID = /^[0-9A-Fa-f]{32}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;
const LIFECYCLE = ['create', 'sign-in', 'transact', 'update', 'delete'];
const MESSAGE_TYPES = ['OTP', 'ARN', 'MKT'];
const UCIDS = ['ATCK', 'BACF', 'BACS', 'CHBK', 'CLDR', 'LEAD', 'OTHR', 'PWRT', 'RESV', 'RXPF', 'SHIP', 'THEF', 'TRVF', 'UNKN'];
export const VOICES = ['f-zh-HK', 'f-zh-CN', 'f-zh-TW', 'f-da-DK', 'f-nl-NL', 'f-en-AU', 'f-en-GB', 'f-en-US', 'f-en-CA', 'f-en-IN', 'f-fi-FI', 'f-fr-FR', 'f-fr-CA', 'f-it-IT', 'f-ja-JP', 'f-ko-KR', 'f-nb-NO', 'f-pl-PL', 'f-pt-BR', 'f-pt-PT', 'f-es-MX', 'f-es-ES'];

const chars = (text: string) => [...text].length;

function isUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Checks shared by every product; the first failing rule wins. */
function common(p: Params): ParamError | undefined {
  if (p.phone_number === undefined || p.phone_number === '') return missing('phone_number', 12000);
  if (!PHONE.test(p.phone_number)) return invalid('phone_number', 11000);
  if (p.account_lifecycle_event !== undefined && !LIFECYCLE.includes(p.account_lifecycle_event)) return invalid('account_lifecycle_event', 11003);
  if (p.callback_url !== undefined && !isUrl(p.callback_url)) return invalid('callback_url', 11004);
  if (p.originating_ip !== undefined && !IPV4.test(p.originating_ip) && !(p.originating_ip.includes(':') && IPV6.test(p.originating_ip))) return invalid('originating_ip', 11010);
  if (p.sender_id !== undefined && (p.sender_id === '' || chars(p.sender_id) > 20)) return invalid('sender_id', 11013);
  if (p.external_id !== undefined && (p.external_id === '' || chars(p.external_id) > 128)) return invalid('external_id', 11016);
  return undefined;
}

function messageAndType(p: Params): ParamError | undefined {
  if (p.message === undefined || p.message === '') return missing('message', 12009);
  if (chars(p.message) > 1600) return invalid('message', 11009);
  if (p.message_type === undefined || p.message_type === '') return missing('message_type', 12017);
  if (!MESSAGE_TYPES.includes(p.message_type)) return invalid('message_type', 11017);
  return undefined;
}

export const validateMessaging = (p: Params) => common(p) ?? messageAndType(p);

export function validateVoice(p: Params): ParamError | undefined {
  return common(p) ?? messageAndType(p) ?? (p.voice !== undefined && !VOICES.includes(p.voice) ? invalid('voice', 11018) : undefined);
}

export function validatePhoneId(p: Params): ParamError | undefined {
  return common(p);
}

export function validateVerify(p: Params): ParamError | undefined {
  const error = common(p);
  if (error) return error;
  if (p.verify_code !== undefined && !/^\d{3,7}$/.test(p.verify_code)) return invalid('verify_code', 11000);
  if (p.template !== undefined) {
    if (!p.template.includes('$$CODE$$')) return { positive: 11000, negative: -10001, description: 'Invalid value for parameter template: it must contain $$CODE$$.' };
    if (chars(p.template) > 1600) return invalid('template', 11000);
  }
  if (p.language !== undefined && !/^[a-z]{2}-[A-Z]{2}$/.test(p.language)) return invalid('language', 11000);
  if (p.ucid !== undefined && !UCIDS.includes(p.ucid)) return invalid('ucid', 11000);
  if (p.is_primary !== undefined && p.is_primary !== 'true' && p.is_primary !== 'false') return invalid('is_primary', 11000);
  return undefined;
}
