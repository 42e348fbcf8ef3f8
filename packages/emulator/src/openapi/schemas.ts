// The schemas of the OpenAPI document (components.schemas): the service's bodies in their three
// error families, and the control routes' objects. Shapes the emulator answers exactly are closed
// (additionalProperties: false); PhoneID's sections, whose fields depend on the number and the
// add-ons asked for, are described at their top level and left open.
import { ACCOUNT_LIFECYCLE_EVENTS, MESSAGE_ENCODINGS, MESSAGE_TYPES, USE_CASE_CODES } from '@x/service/request';
import { CALLBACK_CHAOS, CALLBACK_PRODUCTS, FAULT_STATUSES, FAULT_TYPES, HTML_FAULT_STATUSES, LATE_DEFAULT_MS, MAX_CALLBACK_COPIES, MAX_LATENCY_MS, MAX_RATE_PER_SECOND, MAX_RETRY_AFTER_SECONDS } from '../state/faults.js';
import { EVENT_TYPES } from '../state/events.js';
import { FINAL_STATUS } from '../service/codes.js';
import { MAX_SCRIPT_STEPS, PHONE_TYPES } from '../state/scripts.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_LIMITS } from '../state/snapshot.js';
import { NON_GSM_KEPT } from '../state/outbox.js';
import {
  BULK_MAX_RECIPIENTS,
  CALL_FORWARD_ACTIONS,
  CODE_PLACEHOLDER,
  EMAIL,
  FORM_BOOLEANS,
  IPV4,
  IPV6,
  IPV6_LENGTH,
  LANGUAGE,
  MAX_ID,
  MAX_PROMPT,
  MAX_SENDER_ID,
  MAX_TEXT,
  PHONE,
  PRESSX_VALUES,
  PROMPT_DIGIT,
  SECURITY_FACTOR,
  TEMPLATE_NAME,
  VERIFY_API_EXTERNAL_ID,
  VERIFY_API_MAX_METHODS,
  VERIFY_CODE,
  VOICES,
} from '../service/validate.js';
import { CONTROL_PREFIX } from '../paths.js';
import { FALLBACK_SECONDS, FIRST_ONLY, METHODS } from '../state/verification.js';

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties), open = false): Schema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: open,
});
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });
const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
const reference: Schema = { type: 'string', pattern: '^[0-9A-F]{32}$', description: '32 hexadecimal characters' };
const VERIFY_CODE_STATES = ['UNKNOWN', 'VALID', 'INVALID', 'EXPIRED', 'MAX_ATTEMPTS_EXCEEDED'];
const VERIFICATION_STATES = ['CREATED', 'ONGOING', 'REJECTED', 'FAILED', 'VERIFIED', 'CANCELED'];

// The request schemas are built from the emulator's own checks (service/validate.ts): the same
// patterns, lists and limits, so that what the document admits the emulator accepts.
/** A JSON Schema pattern from one of the validation's regular expressions (the same ECMA-262 syntax). */
const pattern = (re: RegExp): string => re.source;
/** The same without its anchors, to build larger patterns from it. */
const inner = (re: RegExp): string => re.source.replace(/^\^/, '').replace(/\$$/, '');
/** A string of 1 to `max` characters (the service refuses an empty value). */
const text = (max: number, description?: string): Schema => ({ type: 'string', minLength: 1, maxLength: max, ...(description ? { description } : {}) });
const phone: Schema = { type: 'string', pattern: pattern(PHONE), description: 'Digits with the country code.' };
/** Contains the code's placeholder, at most MAX_TEXT characters. */
const withCode = (description: string): Schema => ({ type: 'string', maxLength: MAX_TEXT, pattern: CODE_PLACEHOLDER.replace(/[$]/g, '\\$'), description });
/** Each character of the control prefix in any case, or percent-encoded: how a URL may spell it. */
const anySpelling = (path: string) =>
  [...path].map((ch) => {
    const hex = ch.charCodeAt(0).toString(16).toUpperCase();
    const letters = ch.toLowerCase() === ch.toUpperCase() ? [ch] : [ch.toLowerCase(), ch.toUpperCase()];
    return `(?:${[...letters.map((l) => l.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), `%${hex}`, `%${hex.toLowerCase()}`].join('|')})`;
  }).join('');
const callbackUrl: Schema = {
  type: 'string',
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+',
  not: { pattern: `^[A-Za-z]+://[^/?#]*/+${anySpelling(CONTROL_PREFIX.slice(1))}(?:/|%2[Ff]|[?#]|$)` },
  description: `An http(s) URL: where the callback of this transaction goes (never the emulator's own ${CONTROL_PREFIX} routes).`,
};

/** The service's request parameters (form fields, or the same names in a JSON object). */
const common: Record<string, Schema> = {
  phone_number: phone,
  external_id: text(MAX_ID),
  callback_url: callbackUrl,
  account_lifecycle_event: { type: 'string', enum: ACCOUNT_LIFECYCLE_EVENTS },
  originating_ip: { type: 'string', anyOf: [{ pattern: pattern(IPV4) }, { pattern: pattern(IPV6), minLength: IPV6_LENGTH.min, maxLength: IPV6_LENGTH.max }], description: 'An IPv4 or IPv6 address.' },
  sender_id: text(MAX_SENDER_ID),
};
/** The risk inputs of Score and Intelligence. */
const riskInputs: Record<string, Schema> = { email_address: { type: 'string', pattern: pattern(EMAIL), description: 'local@domain' }, device_id: text(MAX_ID), account_id: text(MAX_ID) };
const verifyInputs: Record<string, Schema> = { verify_code: { type: 'string', pattern: pattern(VERIFY_CODE) }, language: { type: 'string', pattern: pattern(LANGUAGE), description: 'e.g. en-US' }, ucid: { type: 'string', enum: USE_CASE_CODES } };
/** A bulk recipient: a number, then optionally ":" and an id of 1 to MAX_ID characters (no comma; spaces around either are trimmed). */
const bulkRecipient = `\\s*${inner(PHONE)}\\s*(?::\\s*[^,\\s](?:[^,]{0,${MAX_ID - 2}}[^,\\s])?\\s*)?`;
const verificationStep = (methods: readonly string[]): Schema =>
  obj({ method: { type: 'string', enum: methods }, fallback_time: { type: 'integer', minimum: FALLBACK_SECONDS.min, maximum: FALLBACK_SECONDS.max } }, ['method']);

export const SCHEMAS: Record<string, Schema> = {
  Status: obj({ code: int, description: str, updated_on: { type: 'string', description: 'RFC 3339 with microseconds' } }),
  PositiveError: {
    ...obj({ status: ref('Status'), signature_string: { type: 'string', description: 'On a signature mismatch: the string the emulator signed.' }, reference_id: str }, ['status']),
    description: 'Messaging, Voice, PhoneID (POST), Score, Intelligence: the code in status.code.',
  },
  NegativeError: {
    ...obj(
      {
        errors: { type: 'array', minItems: 1, items: obj({ code: int, description: str }) },
        status: ref('Status'),
        signature_string: str,
        reference_id: str,
      },
      ['errors', 'status'],
    ),
    description: '/v1/verify/* and the PhoneID GET variants: the code in errors[], beside a generic status (501 for authentication failures, else 500).',
  },
  VerifyApiError: { ...obj({ status: ref('Status'), signature_string: str }, ['status']), description: 'The Verify API: its 3xxx codes (or -4000x) in status.code.' },

  MessagingRequest: obj({ ...common, message: text(MAX_TEXT), message_type: { type: 'string', enum: MESSAGE_TYPES } }, ['phone_number', 'message', 'message_type'], true),
  MessagingAnswer: obj({ reference_id: reference, external_id: nullable(str), status: ref('Status') }),
  MessagingStatus: obj({ reference_id: reference, external_id: nullable(str), status: ref('Status'), additional_info: obj({ message_parts_count: int }) }),

  PhoneIdRequest: obj({ ...common, addons: { type: 'object', description: 'Add-on sections by name, e.g. {"contact":{}} (JSON bodies only).' }, consent: { type: 'object' } }, ['phone_number'], true),
  PhoneIdPathRequest: { ...obj({ ...common, addons: { type: 'object', description: 'Add-on sections by name, e.g. {"contact":{}} (JSON bodies only).' }, consent: { type: 'object' } }, [], true), description: 'The number is the one in the path (a phone_number in the body is ignored).' },
  PhoneIdAnswer: obj(
    {
      reference_id: reference,
      external_id: nullable(str),
      status: ref('Status'),
      numbering: { type: 'object' },
      phone_type: obj({ code: str, description: str }),
      location: { type: 'object' },
      carrier: obj({ name: nullable(str) }),
      blocklisting: obj({ blocked: { type: 'boolean' }, block_code: int, block_description: str }),
    },
    ['reference_id', 'status', 'numbering', 'phone_type', 'location', 'carrier', 'blocklisting'],
    true,
  ),
  PhoneIdVariantAnswer: {
    allOf: [ref('PhoneIdAnswer')],
    type: 'object',
    properties: { resource_uri: { type: 'null' }, sub_resource: { type: 'string', enum: ['standard', 'live', 'number_deactivation'] }, errors: arrayOf(obj({ code: int, description: str })) },
    required: ['resource_uri', 'sub_resource', 'errors'],
  },
  RiskRequest: obj({ ...common, ...riskInputs }, ['phone_number', 'account_lifecycle_event'], true),
  ScoreRequest: { ...obj({ ...common, ...riskInputs }, ['account_lifecycle_event'], true), description: 'The number is the one in the path (a phone_number in the body is ignored).' },
  RiskAnswer: {
    allOf: [ref('PhoneIdAnswer')],
    type: 'object',
    properties: { risk: obj({ level: { type: 'string', enum: ['low', 'medium-low', 'medium', 'medium-high', 'high'] }, recommendation: { type: 'string', enum: ['allow', 'flag', 'block'] }, score: { type: 'integer', minimum: 1, maximum: 1000 } }) },
    required: ['risk'],
  },

  EmailRiskRequest: obj({ ...common, ...riskInputs }, ['email_address', 'account_lifecycle_event'], true),
  EmailRiskAnswer: obj({
    reference_id: reference,
    external_id: nullable(str),
    status: ref('Status'),
    email_address_details: obj({
      original: obj({ email_address: str, is_valid: { type: 'boolean' } }),
      cleansed: obj({ email_address: str, is_valid: { type: 'boolean' }, username: str, domain: str }),
      cleansing_details: obj({ is_modified: { type: 'boolean' }, gibberish_probability: { type: 'number', minimum: 0, maximum: 1 }, tag: nullable(str) }),
      domain_details: obj({ general_info: obj({ registered_domain: str, tld: str, tld_type: { type: 'string', enum: ['general', 'country-code'] }, is_disposable: { type: 'boolean' } }) }),
    }),
    intelligence_details: obj({
      risk: obj({ level: { type: 'string', enum: ['low', 'medium-low', 'medium', 'medium-high', 'high'] }, recommendation: { type: 'string', enum: ['allow', 'flag', 'block'] }, score: { type: 'integer', minimum: 1, maximum: 1000 } }),
      insights: obj({ category: arrayOf(int), email_address: obj({ activity: arrayOf(int), static: arrayOf(int), domain: arrayOf(int) }) }, ['category'], true),
    }),
  }),

  VerifyRequest: obj({ ...common, ...verifyInputs, template: withCode(`Must contain ${CODE_PLACEHOLDER}.`), is_primary: { type: 'string', enum: FORM_BOOLEANS } }, ['phone_number'], true),
  VoiceVerifyRequest: {
    ...obj(
      {
        ...common,
        ...verifyInputs,
        tts_message: withCode(`The text spoken; must contain ${CODE_PLACEHOLDER}, where the code is read.`),
        template: withCode(`Read as tts_message when that is absent; must contain ${CODE_PLACEHOLDER}.`),
        call_forward_action: { type: 'string', enum: CALL_FORWARD_ACTIONS },
        caller_id: phone,
        prompt_message: text(MAX_PROMPT),
        prompt_digit: { type: 'string', pattern: pattern(PROMPT_DIGIT) },
        pressx: { type: 'string', enum: PRESSX_VALUES },
        redial: { type: 'string', enum: FORM_BOOLEANS },
      },
      ['phone_number'],
      true,
    ),
    dependentRequired: { prompt_message: ['prompt_digit'], prompt_digit: ['prompt_message'] },
    allOf: [
      { not: { required: ['language', 'prompt_message'] }, description: 'language cannot be combined with prompt_message.' },
      {
        if: { properties: { pressx: { enum: ['1', 'true'] } }, required: ['pressx'] },
        then: { not: { anyOf: [{ required: ['language'] }, { required: ['tts_message'] }, { required: ['template'] }] } },
        description: 'pressx cannot be combined with language or a text.',
      },
    ],
  },
  VerifyAnswer: obj(
    {
      reference_id: reference,
      resource_uri: str,
      sub_resource: { type: 'string', enum: ['sms', 'call'] },
      errors: { type: 'array', maxItems: 0, items: obj({ code: int, description: str }) },
      status: ref('Status'),
      verify: obj({ code_state: { type: 'string', enum: VERIFY_CODE_STATES }, code_entered: nullable(str) }),
      voice: obj({ caller_id: nullable(str) }),
      call_forwarding: obj({ action: { type: 'string', enum: ['FLAG', 'BLOCK'] }, call_forward: { type: 'string', enum: ['FORWARDED', 'NOT_FORWARDED'] } }),
    },
    ['reference_id', 'sub_resource', 'errors', 'status', 'verify'],
  ),
  CompletionAnswer: obj({ reference_id: reference, resource_uri: str, sub_resource: { type: 'string', enum: ['sms', 'call'] }, errors: { type: 'array', maxItems: 0, items: obj({ code: int, description: str }) }, status: ref('Status') }),
  BulkSmsRequest: obj(
    {
      recipients: { type: 'string', pattern: `^${bulkRecipient}(?:,${bulkRecipient}){0,${BULK_MAX_RECIPIENTS - 1}}$`, description: `number[:id],number[:id],... (at most ${BULK_MAX_RECIPIENTS})` },
      template: text(MAX_TEXT),
      ucid: { type: 'string', enum: USE_CASE_CODES },
      session_id: text(MAX_ID),
      sender_id: str,
      callback_url: { type: 'string', pattern: '^https?://\\S+$' },
    },
    ['recipients', 'template'],
    true,
  ),
  BulkSmsAnswer: obj({ reference_id: reference, sub_resource: { const: 'bulk_sms' }, status: ref('Status'), errors: { type: 'array', maxItems: 0, items: obj({ code: int, description: str }) } }),

  VoiceRequest: obj({ ...common, message: text(MAX_TEXT), message_type: { type: 'string', enum: MESSAGE_TYPES }, voice: { type: 'string', enum: VOICES }, caller_id: str }, ['phone_number', 'message', 'message_type'], true),
  VoiceAnswer: obj({ reference_id: reference, external_id: nullable(str), status: ref('Status'), voice: obj({ user_input: { type: 'null' }, caller_id: nullable(str) }) }),
  VoiceList: obj({ calls: arrayOf(ref('VoiceAnswer')) }),

  VerificationRequest: {
    ...obj(
      {
        recipient: obj({ phone_number: phone, email: { type: 'string', pattern: pattern(EMAIL) } }, [], false),
        verification_policy: {
          type: 'array',
          minItems: 1,
          maxItems: VERIFY_API_MAX_METHODS,
          prefixItems: [verificationStep(METHODS)],
          items: verificationStep(METHODS.filter((m) => !FIRST_ONLY.includes(m))),
          description: `Default [{"method":"sms"}]. ${FIRST_ONLY.join(' and ')} only first.`,
        },
        security_factor: { type: 'string', pattern: pattern(SECURITY_FACTOR) },
        external_id: { type: 'string', pattern: pattern(VERIFY_API_EXTERNAL_ID) },
        message_template: { type: 'object', properties: { name: { type: 'string', pattern: pattern(TEMPLATE_NAME) } }, required: ['name'] },
      },
      ['recipient'],
      true,
    ),
    allOf: [
      {
        description: 'recipient.phone_number unless every method is email; recipient.email when one is.',
        if: { properties: { verification_policy: { items: { properties: { method: { const: 'email' } } } } }, required: ['verification_policy'] },
        then: { properties: { recipient: { required: ['email'] } } },
        else: {
          properties: { recipient: { required: ['phone_number'] } },
          if: { properties: { verification_policy: { contains: { properties: { method: { const: 'email' } } } } }, required: ['verification_policy'] },
          then: { properties: { recipient: { required: ['email'] } } },
        },
      },
    ],
  },
  Verification: obj(
    {
      reference_id: reference,
      state: { type: 'string', enum: VERIFICATION_STATES },
      created_on: str,
      updated_on: str,
      recipient: obj({ phone_number: str, email: str }, [], false),
      verification_policy: arrayOf(obj({ method: { type: 'string', enum: METHODS }, fallback_time: int })),
      inner_methods: arrayOf(obj({ method: { type: 'string', enum: METHODS }, state: { type: 'string', enum: VERIFICATION_STATES }, err_code: { type: 'integer', enum: [3000, 3001, 3003] } })),
      external_id: str,
      status: ref('Status'),
    },
    ['reference_id', 'state', 'created_on', 'updated_on', 'recipient', 'verification_policy', 'inner_methods'],
  ),
  FinalizeRequest: obj({ action: { const: 'finalize' }, security_factor: { type: 'string', pattern: '^\\d{3,10}$' } }),
  FinalizeAnswer: obj({ reference_id: reference, state: { type: 'string', enum: VERIFICATION_STATES }, status: obj({ code: { type: 'integer', enum: [3900, 3904, 3909, 3931, 3935] }, description: str }) }),

  // The control routes.
  ControlError: obj({ error: { type: 'string', description: 'What happened and what to do.' }, code: str, field: { type: 'string', description: 'The field or parameter at fault.' } }, ['error', 'code']),
  JournalEntry: obj(
    {
      seq: { type: 'integer', minimum: 1 },
      at: { type: 'integer', description: 'Epoch ms on the emulator clock.' },
      method: str,
      path: str,
      query: str,
      scheme: { type: 'string', enum: ['digest', 'basic', 'none'] },
      customerId: str,
      verdict: { type: 'string', description: 'ok, a VerifyFailure reason (signature_mismatch, ...), control, none, or fault:<type>.' },
      stringToSign: obj({ ours: str, theirs: str }, ['ours']),
      status: int,
      serviceCode: int,
      referenceId: str,
      phoneNumbers: arrayOf(str),
      fault: { type: 'string', enum: FAULT_TYPES as unknown as string[] },
      ms: { type: 'number', minimum: 0 },
    },
    ['seq', 'at', 'method', 'path', 'scheme', 'verdict', 'status', 'ms'],
  ),
  OutboxMessage: obj(
    {
      referenceId: str,
      customerId: str,
      channel: { type: 'string', enum: ['sms', 'voice', 'whatsapp', 'viber', 'rcs', 'email'] },
      product: { type: 'string', enum: ['messaging', 'verify', 'voice', 'bulk_sms', 'verify_api'] },
      phoneNumber: str,
      recipientId: str,
      text: str,
      messageType: str,
      senderId: str,
      code: str,
      encoding: { type: 'string', enum: MESSAGE_ENCODINGS, description: 'SMS only' },
      units: int,
      parts: { type: 'integer', minimum: 0, description: 'SMS only: the parts it was sent in (its message_parts_count)' },
      unitsPerPart: { type: 'integer', enum: [160, 153, 70, 67] },
      nonGsm: { ...arrayOf(obj({ character: str, index: int })), maxItems: NON_GSM_KEPT, description: `SMS only: the characters that forced UCS-2 (the first ${NON_GSM_KEPT}) with their UTF-16 index` },
      at: int,
    },
    ['referenceId', 'customerId', 'channel', 'product', 'phoneNumber', 'text', 'at'],
  ),
  CallbackAttempt: obj(
    {
      id: { type: 'integer', minimum: 1 },
      referenceId: str,
      url: str,
      attempt: { type: 'integer', minimum: 1 },
      at: int,
      ok: { type: 'boolean' },
      status: int,
      error: { type: 'string', description: 'Why it failed, as the runtime said (a URL in it with its password masked).' },
      cause: { type: 'string', description: 'The system\'s code below HTTP, when the runtime says: ECONNREFUSED, ENOTFOUND, ETIMEDOUT, ...' },
      address: { type: 'string', description: 'The address it tried to reach (127.0.0.1:3000), when the runtime says.' },
      nextAttemptAt: { type: 'integer', description: 'When the next attempt is due, on the emulator\'s clock; absent when none follows.' },
      ms: { type: 'number', minimum: 0 },
      resentFrom: int,
      chaos: obj({ kind: { type: 'string', enum: CALLBACK_CHAOS as unknown as string[] }, detail: { type: 'string', description: 'What the callback fault did, e.g. "copy 2 of 3".' } }, ['kind', 'detail']),
      restored: { const: true, description: 'Restored from a saved state: no signature kept, cannot be re-sent.' },
      payload: { description: 'The body sent, parsed.' },
      headers: { type: 'object', additionalProperties: str, description: 'As sent, the signature cut to its first six characters.' },
      bodySha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      verifiable: { const: true },
    },
    ['id', 'referenceId', 'url', 'attempt', 'at', 'ok', 'payload', 'headers', 'bodySha256', 'verifiable'],
  ),
  CallbackRaw: obj({ id: int, url: str, body: { type: 'string', description: 'The exact signed bytes.' }, headers: { type: 'object', additionalProperties: str } }),
  Transaction: obj(
    {
      referenceId: reference,
      kind: { type: 'string', enum: ['sms', 'verify', 'voice'] },
      phoneNumber: str,
      customerId: str,
      createdAt: int,
      status: ref('Status'),
      history: arrayOf(obj({ code: int, at: int })),
      verify: obj({ state: { type: 'string', enum: VERIFY_CODE_STATES }, attempts: int, channel: { type: 'string', enum: ['sms', 'call'] } }),
      final: { type: 'boolean' },
      callbackUrl: str,
      externalId: str,
    },
    ['referenceId', 'kind', 'phoneNumber', 'customerId', 'createdAt', 'status', 'history', 'final'],
  ),
  FaultRule: {
    type: 'object',
    description: 'Checked field by field; unknown fields are refused. In a listing, times is what is left (null: always).',
    properties: {
      type: { type: 'string', enum: FAULT_TYPES as unknown as string[] },
      times: { type: ['integer', 'null'], minimum: 1 },
      method: { type: 'string', pattern: '^[A-Za-z]{1,16}$' },
      path: { type: 'string', pattern: '^/' },
      probability: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      ms: { type: 'integer', minimum: 0, maximum: MAX_LATENCY_MS },
      status: { type: 'integer', minimum: 400, maximum: 599, description: `status: ${FAULT_STATUSES.join(', ')}; html: ${HTML_FAULT_STATUSES.join(', ')} (default 502); error: 400 to 599` },
      code: { type: 'integer', not: { const: 0 } },
      description: { type: 'string', maxLength: 200 },
      retryAfterSeconds: { type: 'integer', minimum: 0, maximum: MAX_RETRY_AFTER_SECONDS, description: 'The Retry-After header of the answer (rate: replaces the seconds until the window has room).' },
      perSecond: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RATE_PER_SECOND,
        description: 'rate: the requests one customer may make in one second (the emulator\'s clock, a sliding window); past it, 429 in the product\'s family with Retry-After, unprocessed. A rate rule stays until removed (no times, no probability).',
      },
      chaos: {
        type: 'string',
        enum: CALLBACK_CHAOS as unknown as string[],
        description: 'callback: duplicate (copies more times), reorder (the earlier status right after the final one), late (the earlier status delayMs after the final one), drop (the first attempt is never sent; retries follow).',
      },
      copies: { type: 'integer', minimum: 1, maximum: MAX_CALLBACK_COPIES, description: 'callback duplicate: extra copies (default 1).' },
      delayMs: { type: 'integer', minimum: 0, maximum: MAX_LATENCY_MS, description: `callback late: wait after the final status, emulator clock (default ${LATE_DEFAULT_MS}).` },
      phoneNumber: { type: 'string', pattern: '^\\+?[0-9][0-9 ().-]{0,31}$', description: 'callback: only callbacks about numbers starting with these digits (kept as digits only).' },
      product: { type: 'string', enum: CALLBACK_PRODUCTS as unknown as string[], description: 'callback: only callbacks of this product.' },
    },
    required: ['type'],
    additionalProperties: false,
  },
  FaultList: obj({ faults: arrayOf(ref('FaultRule')) }),
  NumberScript: {
    type: 'object',
    description: 'What each channel of a number (`number`) or of numbers starting with `prefix` does next: each channel takes the first step of its own, once. Checked field by field; an error names the path (numbers[0].steps[1].sms).',
    properties: {
      number: { type: 'string', pattern: '^[0-9]{1,32}$' },
      prefix: { type: 'string', pattern: '^[0-9]{1,32}$' },
      steps: {
        type: 'array',
        maxItems: MAX_SCRIPT_STEPS,
        items: {
          oneOf: [
            obj({ sms: { oneOf: [{ type: 'string', enum: ['delivered', 'undeliverable'] }, { type: 'integer', enum: FINAL_STATUS.sms as number[] }] }, delayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 } }, ['sms']),
            obj({ call: { oneOf: [{ type: 'string', enum: ['answered', 'not_answered', 'busy'] }, { type: 'integer', enum: FINAL_STATUS.voice as number[] }] }, delayMs: { type: 'integer', minimum: 0, maximum: 86_400_000 } }, ['call']),
            obj({ phoneid: { type: 'object', properties: { type: { type: 'string', enum: Object.keys(PHONE_TYPES) }, risk: { type: 'integer', minimum: 1, maximum: 1000 } }, minProperties: 1, additionalProperties: false } }),
          ],
        },
      },
    },
    required: ['steps'],
    oneOf: [{ required: ['number'] }, { required: ['prefix'] }],
    additionalProperties: false,
  },
  NumberList: obj({
    numbers: arrayOf(ref('NumberScript')),
    defaults: arrayOf(obj({ suffix: str, meaning: str, sms: int, call: int, phoneid: obj({ type: str, risk: int }, ['type']) })),
  }),
  Snapshot: obj(
    {
      format: { const: SNAPSHOT_FORMAT },
      version: { const: 1 },
      savedAt: int,
      clockOffsetMs: { type: 'integer', minimum: 0 },
      transactions: { type: 'array', maxItems: SNAPSHOT_LIMITS.transactions, items: { type: 'object', description: 'A transaction as the emulator keeps it (status, history, final code, verification).' } },
      outbox: { type: 'array', maxItems: SNAPSHOT_LIMITS.outbox, items: { type: 'object', description: 'An outbox message.' } },
      callbacks: { type: 'array', maxItems: SNAPSHOT_LIMITS.callbacks, items: { type: 'object', description: 'A callback attempt: the exact body, the signature cut (restored attempts cannot be re-sent).' } },
      journal: { type: 'array', items: { type: 'object', description: 'A journal entry.' } },
    },
    ['format', 'version', 'savedAt', 'clockOffsetMs', 'transactions', 'outbox', 'callbacks', 'journal'],
  ),
  Clock: obj({ now: { type: 'integer', description: 'Epoch ms on the emulator clock.' }, offsetMs: { type: 'integer', minimum: 0 } }),
  InboundRequest: obj({ from: str, to: str, text: { type: 'string', minLength: 1, maxLength: 1600 }, customer_id: str, callback_url: str }, ['from', 'to', 'text']),
  InboundAnswer: obj({
    reference_id: reference,
    callback_url: str,
    payload: obj({
      reference_id: reference,
      sub_resource: { const: 'mo_sms' },
      status: ref('Status'),
      submit_timestamp: str,
      errors: { type: 'array', maxItems: 0, items: obj({ code: int, description: str }) },
      user_response: obj({ phone_number: str, sender_id: str, mo_message: str }),
    }),
  }),
  EventStream: { type: 'string', description: `Server-Sent Events: "event: <type>" (${EVENT_TYPES.join(', ')}) and "data: <JSON>", a ": ping" comment every 15 s.` },
};
