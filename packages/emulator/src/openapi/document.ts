// The OpenAPI 3.1 document of what the emulator serves: the service routes (as the service
// answers them, in their error families) and the control routes. Served at
// GET /_emulator/openapi.json; test/openapi.test.ts validates it with a maintained validator,
// checks every example against its schema, and every route's real answers against it.
import { ref, SCHEMAS, type Schema } from './schemas.js';
import { ENTERED_CODE, PHONE, REFERENCE_ID } from '../service/validate.js';
import { USE_CASE_CODES } from '@x/service/request';
import { DEFAULT_NUMBER_RULES } from '../state/scripts.js';
import { SNAPSHOT_FORMAT } from '../state/snapshot.js';

type Family = 'PositiveError' | 'NegativeError' | 'VerifyApiError';

const REF = '0123456789ABCDEF0123456789ABCDEF';
const AT = '2025-01-01T12:00:00.000000Z';
const status = (code: number, description: string) => ({ code, description, updated_on: AT });

/** An error answer of each family, as the emulator gives it for a bad signature. */
const ERROR_EXAMPLES: Record<Family, unknown> = {
  PositiveError: { status: status(10008, 'Invalid Signature'), signature_string: 'POST\napplication/x-www-form-urlencoded\n\nx-ts-auth-method:HMAC-SHA256\nx-ts-date:Wed, 01 Jan 2025 12:00:00 GMT\nx-ts-nonce:6c7a0a9e-1c36-4a8b-9a0e-0f1b2c3d4e5f\nphone_number=15555550100&message=hello&message_type=ARN\n/v1/messaging' },
  NegativeError: { errors: [{ code: -30006, description: 'Invalid Signature' }], status: status(501, 'Not authorized') },
  VerifyApiError: { status: status(3400, 'Not authorized: The signature does not match the request.') },
};

const json = (schema: Schema, example: unknown) => ({ 'application/json': { schema, example } });

interface ServiceOp {
  summary: string;
  description?: string;
  tag: string;
  family: Family;
  /** The body's schema, sent as a form or JSON (`jsonOnly`: JSON alone). */
  body?: { schema: string; jsonOnly?: boolean; example: unknown };
  path?: Array<'reference_id' | 'phone_number'>;
  query?: Array<{ name: string; schema: Schema; required?: boolean; description?: string }>;
  ok: { schema: string; example: unknown };
}

const PATH_PARAMS = {
  reference_id: { name: 'reference_id', in: 'path', required: true, schema: { type: 'string', pattern: REFERENCE_ID.source }, description: 'The reference id the service returned.' },
  phone_number: { name: 'phone_number', in: 'path', required: true, schema: { type: 'string', pattern: PHONE.source }, description: 'Digits with the country code.' },
};

function serviceOp(operationId: string, op: ServiceOp): Schema {
  const out: Schema = {
    operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: [{ tsa: [] }, { basic: [] }],
    parameters: [...(op.path ?? []).map((p) => PATH_PARAMS[p]), ...(op.query ?? []).map((q) => ({ in: 'query', required: q.required ?? false, ...q }))],
    responses: {
      '200': { description: 'The answer.', content: json(ref(op.ok.schema), op.ok.example) },
      default: {
        description: 'An error in the product\'s family: 400 bad parameter or body, 401 authentication, 404 unknown reference or operation, 405 method, 413 too large, 429 (a rate fault: past its requests a second per customer; or a status or error fault) and 5xx (fault rules).',
        headers: { 'Retry-After': { description: 'On a 429 of a rate fault (and on fault answers given one): the seconds to wait before the next request.', schema: { type: 'integer', minimum: 0 } } },
        content: json(ref(op.family), ERROR_EXAMPLES[op.family]),
      },
    },
  };
  if (op.body) {
    out.requestBody = {
      required: true,
      content: {
        ...(op.body.jsonOnly ? {} : { 'application/x-www-form-urlencoded': { schema: ref(op.body.schema) } }),
        'application/json': { schema: ref(op.body.schema), example: op.body.example },
      },
    };
  }
  if ((out.parameters as unknown[]).length === 0) delete out.parameters;
  return out;
}

const phoneIdExample = {
  reference_id: REF,
  external_id: null,
  status: status(300, 'Transaction successfully completed'),
  numbering: { original: { complete_phone_number: '15555550100', country_code: '1', phone_number: '5555550100' } },
  phone_type: { code: '2', description: 'MOBILE' },
  location: { city: 'Odessa', country: { name: 'United States', iso2: 'US', iso3: 'USA' } },
  carrier: { name: 'T-Mobile USA' },
  blocklisting: { blocked: false, block_code: 0, block_description: 'Not blocked' },
};
const verifyExample = { reference_id: REF, resource_uri: `/v1/verify/${REF}`, sub_resource: 'sms', errors: [], status: status(290, 'Message in progress'), verify: { code_state: 'UNKNOWN', code_entered: '' } };
const voiceExample = { reference_id: REF, external_id: null, status: status(103, 'Call in progress'), voice: { user_input: null, caller_id: null } };
const verificationExample = {
  reference_id: REF,
  state: 'ONGOING',
  created_on: AT,
  updated_on: AT,
  recipient: { phone_number: '15555550100' },
  verification_policy: [{ method: 'sms', fallback_time: 60 }],
  inner_methods: [{ method: 'sms', state: 'ONGOING', err_code: 3001 }],
};
const sms = { phone_number: '15555550100', message: 'Your code is 123456', message_type: 'OTP' };
const ucid = { name: 'ucid', schema: { type: 'string', enum: USE_CASE_CODES }, description: 'Use case id (required for number_deactivation).' };

const SERVICE_PATHS: Record<string, Record<string, ServiceOp>> = {
  '/v1/messaging': { post: { tag: 'Messaging', summary: 'Send an SMS', family: 'PositiveError', body: { schema: 'MessagingRequest', example: sms }, ok: { schema: 'MessagingAnswer', example: { reference_id: REF, external_id: null, status: status(290, 'Message in progress') } } } },
  '/v1/messaging/{reference_id}': { get: { tag: 'Messaging', summary: 'Status of an SMS', family: 'PositiveError', path: ['reference_id'], ok: { schema: 'MessagingStatus', example: { reference_id: REF, external_id: null, status: status(200, 'Delivered to handset'), additional_info: { message_parts_count: 1 } } } } },
  '/v1/phoneid': { post: { tag: 'PhoneID', summary: 'PhoneID of phone_number (form, or JSON with addons and consent)', family: 'PositiveError', body: { schema: 'PhoneIdRequest', example: { phone_number: '15555550100', addons: { contact: {} } } }, ok: { schema: 'PhoneIdAnswer', example: phoneIdExample } } },
  '/v1/phoneid/{phone_number}': { post: { tag: 'PhoneID', summary: 'PhoneID of the number in the path', family: 'PositiveError', path: ['phone_number'], body: { schema: 'PhoneIdPathRequest', example: {} }, ok: { schema: 'PhoneIdAnswer', example: phoneIdExample } } },
  '/v1/phoneid/standard/{phone_number}': { get: { tag: 'PhoneID', summary: 'PhoneID standard (legacy GET)', family: 'NegativeError', path: ['phone_number'], query: [ucid], ok: { schema: 'PhoneIdVariantAnswer', example: { ...phoneIdExample, resource_uri: null, sub_resource: 'standard', errors: [] } } } },
  '/v1/phoneid/live/{phone_number}': { get: { tag: 'PhoneID', summary: 'PhoneID Live: subscriber, device and roaming status', family: 'NegativeError', path: ['phone_number'], query: [ucid], ok: { schema: 'PhoneIdVariantAnswer', example: { ...phoneIdExample, resource_uri: null, sub_resource: 'live', errors: [], live: { subscriber_status: 'ACTIVE', device_status: 'REACHABLE', roaming: 'NOT_ROAMING', roaming_country: null, roaming_country_iso2: null } } } } },
  '/v1/phoneid/number_deactivation/{phone_number}': { get: { tag: 'PhoneID', summary: 'Number deactivation (legacy)', family: 'NegativeError', path: ['phone_number'], query: [{ ...ucid, required: true }], ok: { schema: 'PhoneIdVariantAnswer', example: { ...phoneIdExample, resource_uri: null, sub_resource: 'number_deactivation', errors: [], number_deactivation: { number: '15555550100', carrier_name: 'T-Mobile USA', last_deactivated: null, tracking_since: '2016-01-01' } } } } },
  '/v1/verify/sms': { post: { tag: 'Verify', summary: 'SMS Verify: send a code', family: 'NegativeError', body: { schema: 'VerifyRequest', example: { phone_number: '15555550100', verify_code: '12345' } }, ok: { schema: 'VerifyAnswer', example: verifyExample } } },
  '/v1/verify/call': { post: { tag: 'Verify', summary: 'Voice Verify: a call that speaks a code', family: 'NegativeError', body: { schema: 'VoiceVerifyRequest', example: { phone_number: '15555550100' } }, ok: { schema: 'VerifyAnswer', example: { ...verifyExample, sub_resource: 'call', status: status(103, 'Call in progress'), voice: { caller_id: null } } } } },
  '/v1/verify/{reference_id}': {
    get: { tag: 'Verify', summary: 'Status of a verification, and the check of a code', family: 'NegativeError', path: ['reference_id'], query: [{ name: 'verify_code', schema: { type: 'string', pattern: ENTERED_CODE.source }, description: 'The code the user entered.' }], ok: { schema: 'VerifyAnswer', example: { ...verifyExample, status: status(200, 'Delivered to handset'), verify: { code_state: 'VALID', code_entered: '12345' } } } },
  },
  '/v1/verify/completion/{reference_id}': { put: { tag: 'Verify', summary: 'Verify completion (your own code check succeeded)', family: 'NegativeError', path: ['reference_id'], ok: { schema: 'CompletionAnswer', example: { reference_id: REF, resource_uri: `/v1/verify/${REF}`, sub_resource: 'sms', errors: [], status: status(1900, 'Verify completion successfully recorded') } } } },
  '/v1/verify/bulk_sms': { post: { tag: 'Verify', summary: 'Bulk SMS: one template, up to 1000 recipients', family: 'NegativeError', body: { schema: 'BulkSmsRequest', example: { recipients: '15555550100:alice,15555550101', template: 'Sale today' } }, ok: { schema: 'BulkSmsAnswer', example: { reference_id: REF, sub_resource: 'bulk_sms', status: status(293, 'Bulk request accepted'), errors: [] } } } },
  '/v1/voice': {
    post: { tag: 'Voice', summary: 'Place a call that speaks a message', family: 'PositiveError', body: { schema: 'VoiceRequest', example: { ...sms, message: 'Your code is 1 2 3 4 5 6' } }, ok: { schema: 'VoiceAnswer', example: voiceExample } },
    get: { tag: 'Voice', summary: 'This account\'s last 100 calls', family: 'PositiveError', ok: { schema: 'VoiceList', example: { calls: [voiceExample] } } },
  },
  '/v1/voice/{reference_id}': { get: { tag: 'Voice', summary: 'Status of a call', family: 'PositiveError', path: ['reference_id'], ok: { schema: 'VoiceAnswer', example: { ...voiceExample, status: status(100, 'Call answered') } } } },
  '/v1/score/{phone_number}': { post: { tag: 'Score', summary: 'Risk of a number (legacy Score)', family: 'PositiveError', path: ['phone_number'], body: { schema: 'ScoreRequest', example: { account_lifecycle_event: 'create' } }, ok: { schema: 'RiskAnswer', example: { ...phoneIdExample, risk: { level: 'low', recommendation: 'allow', score: 120 } } } } },
  '/intelligence/phone': { post: { tag: 'Intelligence', summary: 'Risk of a number (Intelligence; its own accounts when configured)', family: 'PositiveError', body: { schema: 'RiskRequest', example: { phone_number: '15555550100', account_lifecycle_event: 'sign-in' } }, ok: { schema: 'RiskAnswer', example: { ...phoneIdExample, risk: { level: 'low', recommendation: 'allow', score: 120 } } } } },
  '/intelligence/email': {
    post: {
      tag: 'Intelligence',
      summary: 'Risk of an email address (Email Intelligence; its own accounts when configured)',
      description: 'Deterministic from the address: lower case and the plus-tag removed when cleansed; a disposable domain (disposable.example, mailinator.com, ...) and a gibberish local part raise the score.',
      family: 'PositiveError',
      body: { schema: 'EmailRiskRequest', example: { email_address: 'user@example.com', account_lifecycle_event: 'create' } },
      ok: {
        schema: 'EmailRiskAnswer',
        example: {
          reference_id: REF,
          external_id: null,
          status: status(300, 'Transaction successfully completed'),
          email_address_details: {
            original: { email_address: 'user@example.com', is_valid: true },
            cleansed: { email_address: 'user@example.com', is_valid: true, username: 'user', domain: 'example.com' },
            cleansing_details: { is_modified: false, gibberish_probability: 0, tag: null },
            domain_details: { general_info: { registered_domain: 'example.com', tld: 'com', tld_type: 'general', is_disposable: false } },
          },
          intelligence_details: { risk: { level: 'low', recommendation: 'allow', score: 140 }, insights: { category: [], email_address: { activity: [], static: [], domain: [] } } },
        },
      },
    },
  },
  '/intelligence': { post: { tag: 'Intelligence', summary: 'The same as /intelligence/phone (the getting-started page\'s path)', family: 'PositiveError', body: { schema: 'RiskRequest', example: { phone_number: '15555550100', account_lifecycle_event: 'sign-in' } }, ok: { schema: 'RiskAnswer', example: { ...phoneIdExample, risk: { level: 'low', recommendation: 'allow', score: 120 } } } } },
  '/verification': { post: { tag: 'Verify API', summary: 'Create a verification (JSON only, at most 10 KB)', family: 'VerifyApiError', body: { schema: 'VerificationRequest', jsonOnly: true, example: { recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms' }] } }, ok: { schema: 'Verification', example: { ...verificationExample, status: status(3001, 'Message in progress') } } } },
  '/verification/{reference_id}': { get: { tag: 'Verify API', summary: 'Where a verification stands', family: 'VerifyApiError', path: ['reference_id'], ok: { schema: 'Verification', example: verificationExample } } },
  '/verification/{reference_id}/state': { patch: { tag: 'Verify API', summary: 'Finalize with the code the user entered (every outcome is HTTP 200, its code in status)', family: 'VerifyApiError', path: ['reference_id'], body: { schema: 'FinalizeRequest', jsonOnly: true, example: { action: 'finalize', security_factor: '123456' } }, ok: { schema: 'FinalizeAnswer', example: { reference_id: REF, state: 'VERIFIED', status: { code: 3900, description: 'Verification successful' } } } } },
};

interface ControlOp {
  summary: string;
  description?: string;
  status?: number;
  body?: { schema: Schema; example: unknown };
  query?: Array<{ name: string; schema: Schema; description?: string }>;
  path?: Array<{ name: string; schema: Schema; description?: string }>;
  ok: { schema: Schema; example: unknown; contentType?: string };
  errors?: number[];
  /** Default `Control`. */
  tag?: string;
  /** Served without the control token (the inspector's page: a browser opening a URL cannot send one). */
  noToken?: boolean;
}

const controlErrorExample = (status: number) =>
  status === 403
    ? { error: 'The control routes (/_emulator/*) do not answer web pages of other origins (the Origin header is not a loopback origin). ...', code: 'foreign_origin' }
    : status === 404
      ? { error: 'No transaction has reference id "0123": GET /_emulator/transactions lists them (SMS, Verify and Voice; a reset forgets them).', code: 'unknown_transaction', field: 'reference_id' }
      : { error: 'limit must be a whole number from 1 to 1000; got "5000".', code: 'invalid_query', field: 'limit' };

function controlOp(operationId: string, op: ControlOp): Schema {
  const responses: Schema = {
    [String(op.status ?? 200)]: { description: 'The answer.', content: { [op.ok.contentType ?? 'application/json']: { schema: op.ok.schema, example: op.ok.example } } },
  };
  for (const code of [403, ...(op.errors ?? [])]) {
    responses[String(code)] = { description: code === 403 ? 'Refused by the guard (foreign Host or Origin, cross-site, or a missing control token).' : code === 404 ? 'Nothing with that id.' : 'A parameter or the body failed its check; `field` names it.', content: json(ref('ControlError'), controlErrorExample(code)) };
  }
  const parameters = [...(op.path ?? []).map((p) => ({ in: 'path', required: true, ...p })), ...(op.query ?? []).map((q) => ({ in: 'query', required: false, ...q }))];
  return {
    operationId,
    tags: [op.tag ?? 'Control'],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    security: op.noToken ? [{}] : [{}, { controlToken: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: json(op.body.schema, op.body.example) } } : {}),
    responses,
  };
}

const phoneQuery = { name: 'phone_number', schema: { type: 'string' }, description: 'In any format the client accepts: "+1 555 555 1234" finds 15555551234.' };
const journalEntryExample = { seq: 7, at: 1735732800000, method: 'POST', path: '/v1/messaging', scheme: 'digest', customerId: '00000000-0000-4000-8000-000000000001', verdict: 'ok', status: 200, serviceCode: 290, referenceId: REF, phoneNumbers: ['15555550100'], ms: 2.4 };
const outboxExample = { referenceId: REF, customerId: '00000000-0000-4000-8000-000000000001', channel: 'sms', product: 'verify', phoneNumber: '15555550100', text: 'Your code is 12345', code: '12345', encoding: 'GSM-7', units: 18, parts: 1, unitsPerPart: 160, nonGsm: [], at: 1735732800000 };
const callbackExample = {
  id: 3,
  referenceId: REF,
  url: 'http://127.0.0.1:3000/callbacks',
  attempt: 1,
  at: 1735732801000,
  ok: true,
  status: 204,
  ms: 3.1,
  payload: { reference_id: REF, status: status(200, 'Delivered to handset'), submit_timestamp: AT, errors: [], sub_resource: 'sms', additional_info: { message_parts_count: 1 } },
  headers: { 'content-type': 'application/json', authorization: 'TSA 00000000-0000-4000-8000-000000000001:Zm9vYm…', 'x-ts-authorization': 'Zm9vYm…' },
  bodySha256: '9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a',
  verifiable: true,
};
const transactionExample = { referenceId: REF, kind: 'sms', phoneNumber: '15555550100', customerId: '00000000-0000-4000-8000-000000000001', createdAt: 1735732800000, status: status(207, 'Error delivering SMS to handset (reason unknown)'), history: [{ code: 290, at: 1735732800000 }, { code: 207, at: 1735732800500 }], final: true, callbackUrl: 'http://127.0.0.1:3000/callbacks' };
const faultsExample = { faults: [{ type: 'status', status: 503, times: 1, path: '/v1/verify' }, { type: 'latency', ms: 2000, times: 3, probability: 0.5 }, { type: 'rate', perSecond: 10 }] };
const numbersExample = {
  numbers: [{ number: '15555550100', steps: [{ sms: 'undeliverable' }, { call: 'answered', delayMs: 2000 }] }],
  defaults: DEFAULT_NUMBER_RULES.slice(0, 1),
};
const snapshotExample = { format: SNAPSHOT_FORMAT, version: 1, savedAt: 1735732800000, clockOffsetMs: 0, transactions: [], outbox: [], callbacks: [], journal: [] };
const idPath = { name: 'id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' }, description: 'The attempt\'s id (GET /_emulator/callbacks).' };
const referencePath = { name: 'reference_id', schema: { type: 'string' } };

/** The inspector's HTML page: guarded like the control routes (Host, Origin), but served without a control token. */
const inspectorPageOp = (summary: string): ControlOp => ({
  summary,
  description: 'HTML (no data in it): the page reads and changes the emulator through the control routes, live through GET /_emulator/events, sending the control token when one is required (it asks for it, or reads #token=... from its address). Its script and style sheet are served under /_emulator/inspector/.',
  tag: 'Inspector',
  noToken: true,
  ok: { schema: { type: 'string' }, contentType: 'text/html', example: '<!DOCTYPE html>\n<html lang="en">…</html>' },
});

const CONTROL_PATHS: Record<string, Record<string, ControlOp>> = {
  '/_emulator/journal': {
    get: {
      summary: 'Every API request, newest last (control reads excepted)',
      description: 'Bounded (journalSize, default 1000). With `since`, the oldest `limit` entries after that seq (page forward); without, the newest `limit`.',
      query: [
        { name: 'method', schema: { type: 'string' } },
        { name: 'path', schema: { type: 'string' }, description: 'A prefix.' },
        { name: 'status', schema: { type: 'string' }, description: 'An HTTP status, or 1xx to 5xx.' },
        { name: 'verdict', schema: { type: 'string' }, description: 'ok, a failure reason, control, none, fault (any fault:*) or fault:<type>.' },
        phoneQuery,
        { name: 'reference_id', schema: { type: 'string' } },
        { name: 'customer_id', schema: { type: 'string' } },
        { name: 'since', schema: { type: 'integer', minimum: 0 } },
        { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
      ],
      ok: { schema: { type: 'object', properties: { entries: { type: 'array', items: ref('JournalEntry') } }, required: ['entries'], additionalProperties: false }, example: { entries: [journalEntryExample] } },
      errors: [400],
    },
  },
  '/_emulator/outbox': {
    get: {
      summary: 'What reached the phones: every SMS, call and Verify API message, with its text and code',
      query: [phoneQuery, { name: 'channel', schema: { type: 'string', enum: ['sms', 'voice', 'whatsapp', 'viber', 'rcs', 'email'] } }, { name: 'customer_id', schema: { type: 'string' } }],
      ok: { schema: { type: 'object', properties: { messages: { type: 'array', items: ref('OutboxMessage') } }, required: ['messages'], additionalProperties: false }, example: { messages: [outboxExample] } },
      errors: [400],
    },
  },
  '/_emulator/callbacks': {
    get: {
      summary: 'Every callback attempt, the signature redacted (the raw route has it)',
      query: [{ name: 'reference_id', schema: { type: 'string' } }],
      ok: { schema: { type: 'object', properties: { attempts: { type: 'array', items: ref('CallbackAttempt') } }, required: ['attempts'], additionalProperties: false }, example: { attempts: [callbackExample] } },
    },
  },
  '/_emulator/callbacks/{id}/raw': {
    get: { summary: 'The exact signed bytes and the headers as sent (to verify the signature, or copy as curl)', path: [idPath], ok: { schema: ref('CallbackRaw'), example: { id: 3, url: callbackExample.url, body: JSON.stringify(callbackExample.payload), headers: { 'content-type': 'application/json', authorization: 'TSA 00000000-0000-4000-8000-000000000001:<signature>', 'x-ts-authorization': '<signature>' } } }, errors: [404] },
  },
  '/_emulator/callbacks/{id}/resend': {
    post: { summary: 'Send an attempt\'s exact body and headers again, as a new attempt; answered when the receiver answered', status: 202, path: [idPath], ok: { schema: { type: 'object', properties: { attempt: ref('CallbackAttempt') }, required: ['attempt'], additionalProperties: false }, example: { attempt: { ...callbackExample, id: 4, resentFrom: 3, attempt: 2 } } }, errors: [404] },
  },
  '/_emulator/transactions': {
    get: {
      summary: 'SMS, Verify and Voice transactions of every account, oldest first',
      query: [phoneQuery, { name: 'kind', schema: { type: 'string', enum: ['sms', 'verify', 'voice'] } }, { name: 'customer_id', schema: { type: 'string' } }],
      ok: { schema: { type: 'object', properties: { transactions: { type: 'array', items: ref('Transaction') } }, required: ['transactions'], additionalProperties: false }, example: { transactions: [transactionExample] } },
      errors: [400],
    },
  },
  '/_emulator/transactions/{reference_id}': {
    get: { summary: 'One transaction', path: [referencePath], ok: { schema: { type: 'object', properties: { transaction: ref('Transaction') }, required: ['transaction'], additionalProperties: false }, example: { transaction: transactionExample } }, errors: [404] },
  },
  '/_emulator/transactions/{reference_id}/status': {
    post: {
      summary: 'Give a transaction its final status now; its callback is sent when a URL is known',
      description: 'The code must be a final status of the transaction\'s channel (SMS: 200, 207, 222, 230, 507, ...; calls: 100, 101, 104, 107, 130, ...); 400 names them.',
      path: [referencePath],
      body: { schema: { type: 'object', properties: { code: { type: 'integer' } }, required: ['code'] }, example: { code: 207 } },
      ok: { schema: { type: 'object', properties: { transaction: ref('Transaction') }, required: ['transaction'], additionalProperties: false }, example: { transaction: transactionExample } },
      errors: [400, 404],
    },
  },
  '/_emulator/clock': { get: { summary: 'The emulator\'s clock', ok: { schema: ref('Clock'), example: { now: 1735733400000, offsetMs: 600000 } } } },
  '/_emulator/clock/advance': {
    post: {
      summary: 'Move the clock forward: deliveries settle, codes and verifications expire, fallbacks and callback retries come due',
      description: 'Answered once the callback attempts it started have answered. Signed requests are still checked against the real clock.',
      body: { schema: { type: 'object', properties: { ms: { type: 'integer', minimum: 1 } }, required: ['ms'] }, example: { ms: 600000 } },
      ok: { schema: ref('Clock'), example: { now: 1735733400000, offsetMs: 600000 } },
      errors: [400],
    },
  },
  '/_emulator/faults': {
    get: { summary: 'The fault rules, in the order they are matched', ok: { schema: ref('FaultList'), example: faultsExample } },
    post: { summary: 'Add a fault rule (latency, status, error, html, reset, drop; rate: 429 past N requests a second per customer; callback: chaos in status callbacks)', status: 201, body: { schema: ref('FaultRule'), example: { type: 'error', status: 429, code: 10019, retryAfterSeconds: 2, probability: 0.25 } }, ok: { schema: ref('FaultList'), example: faultsExample }, errors: [400] },
    delete: { summary: 'Remove every fault rule', ok: { schema: ref('FaultList'), example: { faults: [] } } },
  },
  '/_emulator/faults/{index}': {
    delete: { summary: 'Remove the rule at this position of the list (0 is the first)', path: [{ name: 'index', schema: { type: 'string', pattern: '^[0-9]+$' } }], ok: { schema: ref('FaultList'), example: faultsExample }, errors: [404] },
  },
  '/_emulator/inbound': {
    post: { summary: 'An end user texts your number: a signed mo_sms callback to the account\'s callback URL', status: 202, body: { schema: ref('InboundRequest'), example: { from: '15555550100', to: '15555559999', text: 'STOP' } }, ok: { schema: ref('InboundAnswer'), example: { reference_id: REF, callback_url: 'http://127.0.0.1:3000/callbacks', payload: { reference_id: REF, sub_resource: 'mo_sms', status: status(1500, 'Delivered to customer'), submit_timestamp: AT, errors: [], user_response: { phone_number: '15555550100', sender_id: '15555559999', mo_message: 'STOP' } } } }, errors: [400] },
  },
  '/_emulator/numbers': {
    get: { summary: 'The number scripts (with the steps they have left) and the default rules (the test suffixes)', ok: { schema: ref('NumberList'), example: numbersExample } },
    post: { summary: 'Add a number script: what each channel of a number (or prefix) does next, steps taken in order', status: 201, body: { schema: ref('NumberScript'), example: numbersExample.numbers[0] }, ok: { schema: ref('NumberList'), example: numbersExample }, errors: [400] },
    put: { summary: 'Replace every number script', body: { schema: { type: 'object', properties: { numbers: { type: 'array', items: ref('NumberScript') } }, required: ['numbers'], additionalProperties: false }, example: { numbers: numbersExample.numbers } }, ok: { schema: ref('NumberList'), example: numbersExample }, errors: [400] },
    delete: { summary: 'Remove every number script (the default rules stay)', ok: { schema: ref('NumberList'), example: { ...numbersExample, numbers: [] } } },
  },
  '/_emulator/snapshot': {
    get: { summary: 'The state as one document: transactions, outbox, callback attempts (signatures cut), journal, clock offset', ok: { schema: ref('Snapshot'), example: snapshotExample } },
    put: {
      summary: 'Replace the state with a saved one (checked field by field first; a bad one changes nothing)',
      body: { schema: ref('Snapshot'), example: snapshotExample },
      ok: { schema: { type: 'object', properties: { restored: { type: 'object', properties: { transactions: { type: 'integer' }, outbox: { type: 'integer' }, callbacks: { type: 'integer' }, journal: { type: 'integer' } }, required: ['transactions', 'outbox', 'callbacks', 'journal'], additionalProperties: false } }, required: ['restored'], additionalProperties: false }, example: { restored: { transactions: 0, outbox: 0, callbacks: 0, journal: 0 } } },
      errors: [400],
    },
  },
  '/_emulator/reset': {
    post: { summary: 'Forget everything: transactions, outbox, callbacks, faults, nonces, journal, clock offset', ok: { schema: { type: 'object', properties: { reset: { const: true } }, required: ['reset'], additionalProperties: false }, example: { reset: true } } },
  },
  '/_emulator/events': {
    get: { summary: 'Server-Sent Events: journal, outbox, callback, transaction, faults, clock, reset', ok: { schema: ref('EventStream'), contentType: 'text/event-stream', example: 'event: outbox\ndata: {"referenceId":"0123456789ABCDEF0123456789ABCDEF","phoneNumber":"15555550100","text":"Your code is 12345"}\n\n' } },
  },
  '/': { get: inspectorPageOp('The inspector (the same page as /_emulator/inspector)') },
  '/_emulator/inspector': { get: inspectorPageOp('The inspector: a web page over the control routes (outbox as phones, journal, callbacks, transactions, clock, faults)') },
  '/_emulator/openapi.json': {
    get: { summary: 'This document', ok: { schema: { type: 'object', properties: { openapi: { const: '3.1.0' } }, required: ['openapi', 'info', 'paths'] }, example: { openapi: '3.1.0', info: { title: 'x-emulator', version: '1.0.0' }, paths: {} } } },
  },
};

/** Each operation's `operationId` (code generators name their functions after it), by "method path". */
const OPERATION_IDS: Record<string, string> = {
  'post /v1/messaging': 'sendSms',
  'get /v1/messaging/{reference_id}': 'getSmsStatus',
  'post /v1/phoneid': 'phoneId',
  'post /v1/phoneid/{phone_number}': 'phoneIdOfNumber',
  'get /v1/phoneid/standard/{phone_number}': 'phoneIdStandard',
  'get /v1/phoneid/live/{phone_number}': 'phoneIdLive',
  'get /v1/phoneid/number_deactivation/{phone_number}': 'numberDeactivation',
  'post /v1/verify/sms': 'verifySms',
  'post /v1/verify/call': 'verifyCall',
  'get /v1/verify/{reference_id}': 'getVerifyStatus',
  'put /v1/verify/completion/{reference_id}': 'completeVerify',
  'post /v1/verify/bulk_sms': 'sendBulkSms',
  'post /v1/voice': 'placeCall',
  'get /v1/voice': 'listCalls',
  'get /v1/voice/{reference_id}': 'getCallStatus',
  'post /v1/score/{phone_number}': 'scoreNumber',
  'post /intelligence/phone': 'phoneIntelligence',
  'post /intelligence/email': 'emailIntelligence',
  'post /intelligence': 'intelligence',
  'post /verification': 'createVerification',
  'get /verification/{reference_id}': 'getVerification',
  'patch /verification/{reference_id}/state': 'finalizeVerification',
  'get /_emulator/journal': 'listJournal',
  'get /_emulator/outbox': 'listOutbox',
  'get /_emulator/callbacks': 'listCallbacks',
  'get /_emulator/callbacks/{id}/raw': 'getCallbackRaw',
  'post /_emulator/callbacks/{id}/resend': 'resendCallback',
  'get /_emulator/transactions': 'listTransactions',
  'get /_emulator/transactions/{reference_id}': 'getTransaction',
  'post /_emulator/transactions/{reference_id}/status': 'setTransactionStatus',
  'get /_emulator/clock': 'getClock',
  'post /_emulator/clock/advance': 'advanceClock',
  'get /_emulator/faults': 'listFaults',
  'post /_emulator/faults': 'addFault',
  'delete /_emulator/faults': 'clearFaults',
  'delete /_emulator/faults/{index}': 'removeFault',
  'post /_emulator/inbound': 'sendInbound',
  'get /_emulator/numbers': 'listNumberScripts',
  'post /_emulator/numbers': 'addNumberScript',
  'put /_emulator/numbers': 'replaceNumberScripts',
  'delete /_emulator/numbers': 'clearNumberScripts',
  'get /_emulator/snapshot': 'getSnapshot',
  'put /_emulator/snapshot': 'restoreSnapshot',
  'post /_emulator/reset': 'reset',
  'get /_emulator/events': 'streamEvents',
  'get /': 'inspectorHome',
  'get /_emulator/inspector': 'inspector',
  'get /_emulator/openapi.json': 'getOpenApiDocument',
};

function operationIdOf(method: string, path: string): string {
  const id = OPERATION_IDS[`${method} ${path}`];
  if (!id) throw new Error(`openapi: no operationId for ${method} ${path}`);
  return id;
}

/** The version of this document (it changes when a route or a shape does). */
export const OPENAPI_VERSION = '1.4.0';

/** The document, built anew at each call. */
export function openApiDocument(): Schema {
  const paths: Schema = {};
  for (const [path, ops] of Object.entries(SERVICE_PATHS)) paths[path] = Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, serviceOp(operationIdOf(method, path), op)]));
  for (const [path, ops] of Object.entries(CONTROL_PATHS)) paths[path] = Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, controlOp(operationIdOf(method, path), op)]));
  return {
    openapi: '3.1.0',
    info: {
      title: 'x-emulator',
      version: OPENAPI_VERSION,
      summary: 'A local emulator of the messaging and verification service, and its control routes.',
      description:
        'The service routes answer as the service does: Messaging, Voice, PhoneID (POST), Score and Intelligence in the positive family (the code in status.code); /v1/verify/* and the PhoneID GETs in the negative family (errors[]); the Verify API in its 3xxx codes. ' +
        'Every service route verifies a TSA signature (Authorization: TSA <customer id>:<signature>, with X-TS-Date and X-TS-Nonce) or Basic. Fault rules can make any service route answer 429 or 5xx in its family, an HTML error page, or no answer at all. ' +
        'The control routes (/_emulator/*) answer only requests addressed to a loopback host, never web pages of other origins; with a control token, only requests that carry it.',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'x-sdk', url: 'https://github.com/x-sdk/x-sdk/tree/main/packages/emulator#readme' },
    },
    servers: [{ url: 'http://127.0.0.1:4010', description: 'x-emulator (the CLI\'s default port)' }],
    tags: [
      { name: 'Messaging', description: 'SMS: send one, and its status.' },
      { name: 'PhoneID', description: 'What a number is: type, carrier, location, add-ons.' },
      { name: 'Verify', description: 'SMS and Voice Verify, their status and code check, completion, Bulk SMS.' },
      { name: 'Voice', description: 'Calls that speak a message.' },
      { name: 'Score', description: 'Risk of a number (legacy Score).' },
      { name: 'Intelligence', description: 'Risk of a number or an email address.' },
      { name: 'Verify API', description: 'Multi-channel verifications (JSON only).' },
      { name: 'Inspector', description: 'The web page over the control routes.' },
      { name: 'Control', description: 'The emulator\'s own routes: journal, outbox, callbacks, transactions, clock, faults, triggers, events.' },
    ],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        tsa: { type: 'apiKey', in: 'header', name: 'Authorization', description: '"TSA <customer id>:<base64 HMAC-SHA256 of the string to sign>", with X-TS-Date, X-TS-Nonce and X-TS-Auth-Method (see @x/auth).' },
        basic: { type: 'http', scheme: 'basic', description: 'customer id and API key.' },
        controlToken: { type: 'http', scheme: 'bearer', description: 'Required on the control routes when the emulator listens on a non-loopback address or was given a control token.' },
      },
    },
  };
}
