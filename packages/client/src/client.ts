import { Transport, type RawRequest, type RequestOptions } from './transport/index.js';
import { configuration, count } from './transport/request.js';
import { ACCOUNT_LIFECYCLE_EVENTS, MESSAGE_TYPES, type MessageType } from '@x/service/request';
import { bulkSms, type BulkSmsOperations } from './products/bulk-sms.js';
import { intelligence, type IntelligenceOperations } from './products/intelligence.js';
import { addonFields } from './products/phone-id-addons.js';
import { phoneIdVariants, type PhoneIdVariantOperations } from './products/phone-id.js';
import { score, type ScoreOperations } from './products/score.js';
import { verifyApi, type VerifyApiOperations } from './products/verify-api.js';
import { verifyCompletion, type VerifyCompletionOperations } from './products/verify-completion.js';
import { voiceVerify, type VoiceVerifyOperations } from './products/voice-verify.js';
import { configure } from './configure.js';
import { createRouter, perCall, type CreateClientOptions } from './routing.js';
import type {
  ApiResponse,
  CommonParams,
  PhoneIdParams,
  PhoneIdResponse,
  SendSmsParams,
  SmsResponse,
  VerifyResponse,
  VerifySmsParams,
  VerifyStatusResponse,
  VoiceCallParams,
  VoiceResponse,
} from './types.js';
import { ValidationError } from './errors.js';
import * as v from './validate.js';

const optional = v.optional;

export interface Client {
  messaging: {
    /** POST /v1/messaging. Never sent twice: retried only on 429 or when it provably did not leave. */
    send(params: SendSmsParams, options?: RequestOptions): Promise<ApiResponse<SmsResponse>>;
    /** GET /v1/messaging/{reference_id}. */
    status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<SmsResponse>>;
  } & BulkSmsOperations;
  phoneId: {
    /** POST /v1/phoneid/{phone_number}, JSON body (add-ons allowed). */
    lookup(phoneNumber: string, params?: PhoneIdParams, options?: RequestOptions): Promise<ApiResponse<PhoneIdResponse>>;
  } & PhoneIdVariantOperations;
  verify: {
    /** POST /v1/verify/sms: sends a code. */
    sms(params: VerifySmsParams, options?: RequestOptions): Promise<ApiResponse<VerifyResponse>>;
    /** GET /v1/verify/{reference_id}?verify_code=: checks the code the user entered (counts as an attempt). SMS or call. */
    check(referenceId: string, verifyCode: string, options?: RequestOptions): Promise<ApiResponse<VerifyStatusResponse>>;
    /** GET /v1/verify/{reference_id}: status without submitting a code. SMS or call. */
    status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<VerifyStatusResponse>>;
  } & VoiceVerifyOperations & VerifyCompletionOperations;
  voice: {
    /** POST /v1/voice: places a call that speaks the message. Never placed twice. */
    call(params: VoiceCallParams, options?: RequestOptions): Promise<ApiResponse<VoiceResponse>>;
    /** GET /v1/voice/{reference_id}. */
    status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<VoiceResponse>>;
  };
  /** Legacy risk score on the REST host. */
  score: ScoreOperations;
  /** Intelligence Cloud, on its own host (`products.intelligence`). */
  intelligence: IntelligenceOperations;
  /** Multi-channel Verify API, on its own host (`products.verifyApi`). */
  verifyApi: VerifyApiOperations;
  /** Any other operation, signed the same way (REST host). */
  request<T = unknown>(request: RawRequest): Promise<ApiResponse<T>>;
}

/** The message of an SMS or a call: text, type and (SMS, verify) sender id. */
function content(p: { message: string; messageType: MessageType }, maxParts = 0) {
  return { message: v.smsParts(v.text(p.message, 'message', 1600), maxParts), message_type: v.oneOf(p.messageType, 'messageType', MESSAGE_TYPES) };
}
const senderId = (value: string | undefined) => optional(value, (id) => v.maxLength(id, 'senderId', 20));

function dlt(p: { dltTemplateId?: string; dltEntityId?: string }) {
  return {
    dlt_template_id: optional(p.dltTemplateId, (x) => v.maxLength(x, 'dltTemplateId', 40)),
    dlt_entity_id: optional(p.dltEntityId, (x) => v.maxLength(x, 'dltEntityId', 40)),
  };
}

function transaction(p: VerifySmsParams) {
  if ((p.transactionAmount === undefined) !== (p.transactionPayee === undefined)) {
    throw new ValidationError(p.transactionAmount === undefined ? 'transactionAmount' : 'transactionPayee', 'transactionAmount and transactionPayee go together: give both or neither.');
  }
  return {
    transaction_amount: optional(p.transactionAmount, (x) => v.maxLength(x, 'transactionAmount', 40)),
    transaction_payee: optional(p.transactionPayee, (x) => v.maxLength(x, 'transactionPayee', 40)),
    sim_swap_check: optional(p.simSwapCheck, String),
  };
}

/** The form fields every product shares, validated, in the service's names. */
function common(p: CommonParams | Omit<CommonParams, 'phoneNumber'>, withPhone: boolean): Record<string, string | undefined> {
  if (!p || typeof p !== 'object') throw new ValidationError('params', 'must be an object, e.g. { phoneNumber, ... }.');
  // Written field by field into one object (spreading small objects costs V8 a slow path per call).
  const fields: Record<string, string | undefined> = p.extra ? { ...p.extra } : {};
  if (withPhone) fields.phone_number = v.phoneNumber((p as CommonParams).phoneNumber);
  fields.account_lifecycle_event = optional(p.accountLifecycleEvent, (x) => v.oneOf(x, 'accountLifecycleEvent', ACCOUNT_LIFECYCLE_EVENTS));
  fields.originating_ip = p.originatingIp;
  fields.external_id = optional(p.externalId, (x) => v.maxLength(x, 'externalId', 128));
  fields.callback_url = 'callbackUrl' in p && p.callbackUrl !== undefined ? v.url(p.callbackUrl, 'callbackUrl') : undefined;
  return fields;
}

/**
 * A client for every operation of the service. Validates before sending, signs every attempt,
 * times out, retries safely, and answers with typed data plus the HTTP status and headers.
 * Without `customerId` and `apiKey` it reads `X_CUSTOMER_ID` and `X_API_KEY` (also `X_BASE_URL`,
 * `X_LOG_LEVEL`) from the environment in Node, Bun and Deno; explicit options always win. In a
 * browser it refuses unless `dangerouslyAllowBrowser: true`.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 *
 * const client = createClient({ customerId, apiKey }); // or createClient() with X_CUSTOMER_ID and X_API_KEY set
 * const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'Your order has shipped', messageType: 'ARN' });
 * log(data.reference_id, data.status.code);
 * ```
 */
export function createClient(given?: CreateClientOptions): Client {
  const options = configure(given);
  const maxParts = count(options.maxParts, 'maxParts', 1, 0, configuration); // 0: no limit
  const transport = new Transport(options);
  const send = <T>(request: RawRequest, o?: RequestOptions) => transport.send<T>(o ? { ...request, ...perCall(o) } : request);
  const routed = createRouter(options, transport);

  return {
    messaging: {
      send: async (p, o) =>
        send<SmsResponse>({
          method: 'POST',
          path: '/v1/messaging',
          form: Object.assign(common(p, true), content(p, maxParts), { sender_id: senderId(p.senderId) }, dlt(p)),
        }, o),
      status: async (id, o) => send<SmsResponse>({ method: 'GET', path: `/v1/messaging/${v.referenceId(id)}` }, o),
      ...bulkSms(routed),
    },
    phoneId: {
      lookup: async (phone, p = {}, o) => {
        const path = `/v1/phoneid/${v.phoneNumber(phone)}`;
        const fields = common(p, false);
        if (p.encoding === 'form') {
          if (p.addons || p.consent) throw new ValidationError(p.addons ? 'addons' : 'consent', 'needs the JSON encoding (leave encoding unset, or set it to "json").');
          return send<PhoneIdResponse>({ method: 'POST', path, form: fields, idempotent: true }, o);
        }
        const json: Record<string, unknown> = addonFields(p.addons, p.consent);
        for (const [key, value] of Object.entries(fields)) json[key] = value;
        for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
        return send<PhoneIdResponse>({ method: 'POST', path, json, idempotent: true }, o);
      },
      ...phoneIdVariants(routed),
    },
    verify: {
      sms: async (p, o) =>
        send<VerifyResponse>({
          method: 'POST',
          path: '/v1/verify/sms',
          form: Object.assign(
            common(p, true),
            {
              verify_code: optional(p.verifyCode, v.verifyCode),
              template: optional(p.template, v.template),
              language: optional(p.language, v.language),
              sender_id: senderId(p.senderId),
              ucid: p.ucid,
              is_primary: optional(p.isPrimary, String),
            },
            dlt(p),
            transaction(p),
          ),
        }, o),
      // A check submits an attempt, so it is not blindly repeated after a lost answer.
      check: async (id, code, o) =>
        send<VerifyStatusResponse>({ method: 'GET', path: `/v1/verify/${v.referenceId(id)}`, query: { verify_code: v.verifyCode(code) }, idempotent: false }, o),
      status: async (id, o) => send<VerifyStatusResponse>({ method: 'GET', path: `/v1/verify/${v.referenceId(id)}` }, o),
      ...voiceVerify(routed),
      ...verifyCompletion(routed),
    },
    voice: {
      call: async (p, o) =>
        send<VoiceResponse>({
          method: 'POST',
          path: '/v1/voice',
          form: Object.assign(common(p, true), content(p), {
            voice: p.voice,
            caller_id: optional(p.callerId, (x) => v.phoneNumber(x, 'callerId')),
          }),
        }, o),
      status: async (id, o) => send<VoiceResponse>({ method: 'GET', path: `/v1/voice/${v.referenceId(id)}` }, o),
    },
    score: score(routed),
    intelligence: intelligence(routed),
    verifyApi: verifyApi(routed),
    request: async (request) => transport.send(request),
  };
}
