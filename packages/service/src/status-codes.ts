// The service's status codes and states, named, with their descriptions (service.md §11,
// §6; service.md §6.2, §8, §9, §10). Each family is a const object of names -> codes
// for `switch` (`case SMS_STATUS.DELIVERED:`), its code type, the descriptions keyed by code
// (the type checker keeps the two complete together), and a guard that narrows a number from the
// wire, so that a `switch` over a guarded code can be exhaustive.

/** SMS, SMS Verify and Bulk SMS delivery statuses (`status.code`, service.md §11.1). */
export const SMS_STATUS = {
  DELIVERED: 200,
  READ: 201,
  DELIVERED_TO_GATEWAY: 203,
  DELIVERY_ERROR: 207,
  TEMPORARY_PHONE_ERROR: 210,
  PERMANENT_PHONE_ERROR: 211,
  CANNOT_ROUTE: 220,
  EXPIRED: 221,
  SMS_NOT_SUPPORTED: 222,
  BLOCKED_BY_YOUR_REQUEST: 229,
  BLOCKED_BY_SERVICE: 230,
  INVALID_CONTENT: 231,
  BLOCKED_NUMBER_DEACTIVATED: 232,
  BLOCKED_HIGH_RISK: 233,
  BLOCKED_IN_COUNTRY: 237,
  BLOCKED_BY_PREFIX: 238,
  FINAL_STATUS_UNKNOWN: 250,
  SENT_NO_CONFIRMATION: 251,
  NOT_ATTEMPTED_PHONE_TYPE: 286,
  IN_PROGRESS: 290,
  QUEUED: 291,
  QUEUED_BY_GATEWAY: 292,
  BULK_ACCEPTED: 293,
  STATUS_DELAYED: 295,
  NOT_ATTEMPTED: 500,
  NOT_AUTHORIZED: 501,
  CAMPAIGN_ERROR: 502,
  CARRIER_REJECTED_TEMPORARY: 503,
  CARRIER_REJECTED_PERMANENT: 504,
  GATEWAY_ERROR_TEMPORARY: 505,
  GATEWAY_ERROR_PERMANENT: 506,
  INVALID_DESTINATION: 507,
  INVALID_SOURCE: 508,
  PARAMETERS_PROBLEM: 509,
  BLOCKED_BY_SUBSCRIBER: 510,
  LOW_CREDIT: 511,
  ROAMING_ERROR: 512,
  PORTABILITY_ERROR: 513,
  SUBSCRIBER_ABSENT: 514,
  SUSPECTED_SPAM: 515,
  STATUS_NOT_AVAILABLE: 599,
} as const;
export type SmsStatusCode = (typeof SMS_STATUS)[keyof typeof SMS_STATUS];

export const SMS_STATUS_TEXT: Readonly<Record<SmsStatusCode, string>> = {
  200: 'Delivered to handset',
  201: 'Message is read',
  203: 'Delivered to gateway',
  207: 'Error delivering SMS to handset (reason unknown)',
  210: 'Temporary phone error',
  211: 'Permanent phone error',
  220: 'Gateway/network cannot route message',
  221: 'Message expired before delivery',
  222: 'SMS not supported',
  229: 'Message blocked by your request',
  230: 'Message blocked by TeleSign',
  231: 'Invalid/unsupported',
  232: 'Message blocked due to number deactivation event',
  233: 'Message blocked due to high risk score',
  237: 'Message blocked in requested country',
  238: 'Destination blocked by prefix',
  250: 'Final status unknown',
  251: 'Sent out for delivery, no handset confirmation',
  286: 'Transaction not attempted',
  290: 'Message in progress',
  291: 'Queued by TeleSign',
  292: 'Queued by gateway',
  293: 'Bulk request accepted',
  295: 'Status delayed',
  500: 'Transaction not attempted',
  501: 'Not authorized',
  502: 'Campaign error',
  503: 'Carrier rejected – temporary problem',
  504: 'Carrier rejected – permanent error',
  505: 'Error on gateway – temporary error',
  506: 'Error on gateway – permanent error',
  507: 'Invalid destination address',
  508: 'Invalid source address',
  509: 'Parameters problem',
  510: 'Message blocked by subscriber action or request',
  511: 'Subscriber low on credit',
  512: 'Roaming error',
  513: 'Mobile number portability error',
  514: 'Subscriber absent',
  515: 'Suspected spam',
  599: 'Status not available',
};

/** Voice and Voice Verify call statuses (`status.code`, service.md §11.2, service.md §6.2). */
export const VOICE_STATUS = {
  ANSWERED: 100,
  NOT_ANSWERED: 101,
  DISCONNECTED_EARLY: 102,
  IN_PROGRESS: 103,
  INVALID_NUMBER: 104,
  NOT_HANDLED_YET: 105,
  FAILED: 106,
  BUSY: 107,
  CANCELED: 108,
  BLOCKED_BY_YOUR_REQUEST: 129,
  BLOCKED_BY_SERVICE: 130,
  BLOCKED_HIGH_RISK: 133,
  NOT_ATTEMPTED: 500,
  NOT_AUTHORIZED: 501,
  STATUS_NOT_AVAILABLE: 599,
} as const;
export type VoiceStatusCode = (typeof VOICE_STATUS)[keyof typeof VOICE_STATUS];

export const VOICE_STATUS_TEXT: Readonly<Record<VoiceStatusCode, string>> = {
  100: 'Call answered',
  101: 'Not answered',
  102: 'Disconnect occurred before message completed',
  103: 'Call in progress',
  104: 'Wrong/invalid phone number',
  105: 'Call not handled yet',
  106: 'Call failed',
  107: 'Line busy',
  108: 'Call canceled by TeleSign',
  129: 'Call blocked by your request',
  130: 'Call blocked by TeleSign',
  133: 'Call blocked due to high risk score',
  500: 'Transaction not attempted',
  501: 'Not authorized',
  599: 'Status not available',
};

/** Inbound SMS (MO) status (service.md §10): the only one seen. */
export const INBOUND_SMS_STATUS = { DELIVERED_TO_CUSTOMER: 1500 } as const;
export type InboundSmsStatusCode = (typeof INBOUND_SMS_STATUS)[keyof typeof INBOUND_SMS_STATUS];
export const INBOUND_SMS_STATUS_TEXT: Readonly<Record<InboundSmsStatusCode, string>> = { 1500: 'Delivered to customer' };

/** `verify.code_state` of SMS Verify and Voice Verify (service.md §13). */
export const CODE_STATE = {
  VALID: 'VALID',
  INVALID: 'INVALID',
  EXPIRED: 'EXPIRED',
  MAX_ATTEMPTS_EXCEEDED: 'MAX_ATTEMPTS_EXCEEDED',
  UNKNOWN: 'UNKNOWN',
} as const;
export type CodeState = (typeof CODE_STATE)[keyof typeof CODE_STATE];

export const CODE_STATE_TEXT: Readonly<Record<CodeState, string>> = {
  VALID: 'The code entered matches',
  INVALID: 'The code entered does not match',
  EXPIRED: 'A code was entered after the validity period',
  MAX_ATTEMPTS_EXCEEDED: 'A code was entered after the allowed attempts were used up',
  UNKNOWN: 'No code was entered yet (or the state is not known)',
};

/** `state` of a Verify API verification (service.md §8). */
export const VERIFICATION_STATE = {
  CREATED: 'CREATED',
  ONGOING: 'ONGOING',
  VERIFIED: 'VERIFIED',
  REJECTED: 'REJECTED',
  FAILED: 'FAILED',
  CANCELED: 'CANCELED',
} as const;
export type VerificationState = (typeof VERIFICATION_STATE)[keyof typeof VERIFICATION_STATE];

export const VERIFICATION_STATE_TEXT: Readonly<Record<VerificationState, string>> = {
  CREATED: 'Created; nothing sent yet',
  ONGOING: 'A code was sent; waiting for it',
  VERIFIED: 'Finalized with the right code',
  REJECTED: 'Finalized with a wrong code after the allowed attempts',
  FAILED: 'Expired, or every method failed',
  CANCELED: 'Canceled (a method superseded by the next one)',
};

const has = (table: object, key: PropertyKey) => Object.hasOwn(table, key);

/**
 * Narrows a code from the wire to a documented SMS status (then a `switch` over it can be exhaustive).
 *
 * @example
 * ```ts
 * import { SMS_STATUS_TEXT, isSmsStatusCode } from '@x/auth';
 *
 * const code: unknown = 200; // status.code from an answer or a callback
 * if (isSmsStatusCode(code)) log(SMS_STATUS_TEXT[code]); // 'Delivered to handset'
 * ```
 */
export const isSmsStatusCode = (code: unknown): code is SmsStatusCode => typeof code === 'number' && has(SMS_STATUS_TEXT, code);
/**
 * Narrows a code from the wire to a documented call status.
 *
 * @example
 * ```ts
 * import { VOICE_STATUS_TEXT, isVoiceStatusCode } from '@x/auth';
 *
 * const code: unknown = 100; // status.code of a call
 * if (isVoiceStatusCode(code)) log(VOICE_STATUS_TEXT[code]);
 * ```
 */
export const isVoiceStatusCode = (code: unknown): code is VoiceStatusCode => typeof code === 'number' && has(VOICE_STATUS_TEXT, code);
/**
 * Narrows a `code_state` from the wire to a documented one.
 *
 * @example
 * ```ts
 * import { CODE_STATE, isCodeState } from '@x/auth';
 *
 * const state: unknown = JSON.parse('"VALID"'); // from the wire
 * if (isCodeState(state) && state === CODE_STATE.VALID) signIn();
 * ```
 */
export const isCodeState = (state: unknown): state is CodeState => typeof state === 'string' && has(CODE_STATE_TEXT, state);
/**
 * Narrows a Verify API `state` from the wire to a documented one.
 *
 * @example
 * ```ts
 * import { isVerificationState } from '@x/auth';
 *
 * const state: unknown = 'COMPLETED'; // a Verify API answer's state
 * if (isVerificationState(state)) log(state); // typed VerificationState
 * ```
 */
export const isVerificationState = (state: unknown): state is VerificationState => typeof state === 'string' && has(VERIFICATION_STATE_TEXT, state);
