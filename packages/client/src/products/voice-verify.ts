// Voice Verify: a call that speaks a code. POST /v1/verify/call (service.md §6.2); its status and the
// check of the code go through GET /v1/verify/{reference_id}, like SMS Verify.
import { USE_CASE_CODES } from '@x/service/request';
import { ValidationError } from '../errors.js';
import { VOICE_VERIFY } from '../facts.js';
import type { SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { CodeState, ServiceError, TransactionStatus } from '@x/service';
import type { UseCaseCode } from '@x/service/request';
import * as v from '../validate.js';
import type { Send } from '../routing.js';
import type { RiskSection } from './score.js';

export interface VoiceVerifyParams {
  /** Digits with the country code; "+", spaces, dashes, dots and parentheses are removed. */
  phoneNumber: string;
  /** Your own code, 3 to 7 digits. Without it the service makes one; check what the user typed with `verify.check`. */
  verifyCode?: string | undefined;
  /** Spoken instead of the predefined message; must contain `$$CODE$$`, where the code is read. */
  ttsMessage?: string | undefined;
  /** Language of the predefined message, `xx-XX`. Not with `prompt` or `pressx`. */
  language?: string | undefined;
  ucid?: UseCaseCode | undefined;
  /** The end user's IP address. */
  originatingIp?: string | undefined;
  /** A number bought from the service to call from. */
  callerId?: string | undefined;
  /** On a forwarded line: `block` aborts the call (status 130), `flag` marks it. Default: detect only. */
  callForwardAction?: 'block' | 'flag' | undefined;
  /** Ask the user to press `digit` (0-9) before the code is read; two chances, then the call ends. */
  prompt?: { message: string; digit: string } | undefined;
  /** English "press a key to hear your code" before the predefined message. Not with `ttsMessage` or `language`. */
  pressx?: boolean | undefined;
  /** false: no second attempt when the call fails. */
  redial?: boolean | undefined;
  /** Escape hatch: more form fields, sent as given (snake_case names). */
  extra?: Record<string, string> | undefined;
}

export interface CallForwarding {
  action: 'FLAG' | 'BLOCK';
  call_forward: 'FORWARDED' | 'NOT_FORWARDED' | 'UNSUPPORTED' | 'UNAVAILABLE';
}

/** Answer of `verify.call`, and of `verify.status` / `verify.check` for a call (`sub_resource: 'call'`). */
export interface VoiceVerifyResponse {
  reference_id: string;
  sub_resource: 'call';
  errors: ServiceError[];
  /** 103 "Call in progress" right after the POST; 1xx call codes later. */
  status: TransactionStatus;
  verify: { code_state: CodeState; code_entered: string | null };
  /** The caller id actually used. */
  voice?: { caller_id: string | null };
  /** Only with the call-forward feature. (The 2019 OpenAPI copy spells it `call_fowarding` in the POST answer.) */
  call_forwarding?: CallForwarding;
  /** Only when Score is enabled on the account. */
  phone_type?: { code: string; description: string };
  risk?: RiskSection;
}

function form(p: VoiceVerifyParams): Record<string, string | undefined> {
  v.params(p);
  if (p.language !== undefined && (p.prompt !== undefined || p.pressx)) {
    throw new ValidationError('language', `cannot be combined with ${p.prompt !== undefined ? 'prompt' : 'pressx'}: the service plays either the predefined message in a language, or a prompt.`);
  }
  if (p.pressx && p.ttsMessage !== undefined) throw new ValidationError('pressx', 'cannot be combined with ttsMessage.');
  const prompt = v.optional(p.prompt, (x) => {
    v.record(x, 'prompt');
    return { message: v.text(x.message, 'prompt.message', VOICE_VERIFY.promptMaxLength), digit: v.pattern(x.digit, 'prompt.digit', /^\d$/, 'one digit, 0 to 9') };
  });
  const tts = v.optional(p.ttsMessage, (x) => {
    const text = v.text(x, 'ttsMessage', VOICE_VERIFY.textMaxLength);
    if (!text.includes('$$CODE$$')) throw new ValidationError('ttsMessage', 'must contain the placeholder $$CODE$$, where the code is read.');
    return text;
  });
  return {
    ...(v.optional(p.extra, (x) => v.record<string>(x, 'extra')) ?? {}),
    phone_number: v.phoneNumber(p.phoneNumber),
    verify_code: v.optional(p.verifyCode, (x) => v.pattern(x, 'verifyCode', VOICE_VERIFY.codePattern, VOICE_VERIFY.codeRule)),
    [VOICE_VERIFY.textField]: tts,
    language: v.optional(p.language, v.language),
    ucid: v.optional(p.ucid, (x) => v.oneOf(x, 'ucid', USE_CASE_CODES)),
    originating_ip: v.optional(p.originatingIp, (x) => v.ip(x)),
    caller_id: v.optional(p.callerId, (x) => v.phoneNumber(x, 'callerId')),
    call_forward_action: v.optional(p.callForwardAction, (x) => v.oneOf(x, 'callForwardAction', ['block', 'flag'] as const)),
    prompt_message: prompt?.message,
    prompt_digit: prompt?.digit,
    pressx: v.optional(p.pressx, (x) => (v.boolean(x, 'pressx') ? '1' : undefined)),
    redial: v.optional(p.redial, (x) => String(v.boolean(x, 'redial'))),
  };
}

export interface VoiceVerifyOperations {
  /** POST /v1/verify/call: places a call that speaks a code. Never placed twice. */
  call(params: VoiceVerifyParams, options?: SendOptions): Promise<ApiResponse<VoiceVerifyResponse>>;
}

export const voiceVerify = (send: Send): VoiceVerifyOperations => ({
  call: async (p, o) => send<VoiceVerifyResponse>({ host: 'rest', retry: 'unsent', method: 'POST', path: '/v1/verify/call', form: form(p) }, o),
});
