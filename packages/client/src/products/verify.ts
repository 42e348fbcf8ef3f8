// SMS Verify: POST /v1/verify/sms sends a code; GET /v1/verify/{reference_id} checks a code or
// reads the status of an SMS or a call (service.md §4.1). The call is voice-verify.ts, the completion of
// the own-code flow verify-completion.ts: one `verify` namespace.
import type { AdditionalInfo, CodeState, ServiceError, TransactionStatus } from '@x/service';
import type { UseCaseCode } from '@x/service/request';
import { ValidationError } from '../errors.js';
import type { Send } from '../routing.js';
import type { RequestOptions, SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import * as v from '../validate.js';
import { common, dlt, senderId, type CommonParams, type DltParams } from './fields.js';
import { verifyCompletion, type VerifyCompletionOperations } from './verify-completion.js';
import { voiceVerify, type VoiceVerifyOperations, type VoiceVerifyResponse } from './voice-verify.js';

export interface VerifySmsParams extends CommonParams, DltParams {
  /** 3 to 7 digits; the service generates 7 digits when omitted. */
  verifyCode?: string | undefined;
  /** Message text containing `$$CODE$$`. */
  template?: string | undefined;
  /** Locale of the predefined template, `xx-XX`. */
  language?: string | undefined;
  senderId?: string | undefined;
  ucid?: UseCaseCode | undefined;
  isPrimary?: boolean | undefined;
  /** Payment verification: both or neither, at most 40 characters each (`$$AMOUNT$$`, `$$PAYEE$$` in the template). */
  transactionAmount?: string | undefined;
  transactionPayee?: string | undefined;
  /** Only when SIM Swap is enabled on the account. */
  simSwapCheck?: boolean | undefined;
}

export interface VerifyResponse {
  reference_id: string;
  resource_uri?: string;
  sub_resource: 'sms';
  errors: ServiceError[];
  status: TransactionStatus;
  verify: { code_state: CodeState; code_entered: string | null };
  additional_info?: AdditionalInfo;
}

/** What `verify.status` and `verify.check` answer: an SMS or a call transaction, told apart by `sub_resource`. */
export type VerifyStatusResponse = VerifyResponse | VoiceVerifyResponse;

export interface VerifyOperations extends VoiceVerifyOperations, VerifyCompletionOperations {
  /** POST /v1/verify/sms: sends a code. */
  sms(params: VerifySmsParams, options?: SendOptions): Promise<ApiResponse<VerifyResponse>>;
  /** GET /v1/verify/{reference_id}?verify_code=: checks the code the user entered (counts as an attempt). SMS or call. */
  check(referenceId: string, verifyCode: string, options?: RequestOptions): Promise<ApiResponse<VerifyStatusResponse>>;
  /** GET /v1/verify/{reference_id}: status without submitting a code. SMS or call. */
  status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<VerifyStatusResponse>>;
}

function transaction(p: VerifySmsParams) {
  if ((p.transactionAmount === undefined) !== (p.transactionPayee === undefined)) {
    throw new ValidationError(p.transactionAmount === undefined ? 'transactionAmount' : 'transactionPayee', 'transactionAmount and transactionPayee go together: give both or neither.');
  }
  return {
    transaction_amount: v.optional(p.transactionAmount, (x) => v.maxLength(x, 'transactionAmount', 40)),
    transaction_payee: v.optional(p.transactionPayee, (x) => v.maxLength(x, 'transactionPayee', 40)),
    sim_swap_check: v.optional(p.simSwapCheck, String),
  };
}

function smsForm(p: VerifySmsParams): Record<string, string | undefined> {
  return Object.assign(
    common(p, true),
    {
      verify_code: v.optional(p.verifyCode, v.verifyCode),
      template: v.optional(p.template, v.template),
      language: v.optional(p.language, v.language),
      sender_id: senderId(p.senderId),
      ucid: p.ucid,
      is_primary: v.optional(p.isPrimary, String),
    },
    dlt(p),
    transaction(p),
  );
}

export const verify = (send: Send): VerifyOperations => ({
  sms: async (p, o) => send<VerifyResponse>({ host: 'rest', retry: 'unsent', method: 'POST', path: '/v1/verify/sms', form: smsForm(p) }, o),
  // A check submits an attempt, so it is not blindly repeated after a lost answer.
  check: async (id, code, o) =>
    send<VerifyStatusResponse>({ host: 'rest', retry: 'unsent', method: 'GET', path: `/v1/verify/${v.referenceId(id)}`, query: { verify_code: v.verifyCode(code) } }, o),
  status: async (id, o) => send<VerifyStatusResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/verify/${v.referenceId(id)}` }, o),
  ...voiceVerify(send),
  ...verifyCompletion(send),
});
