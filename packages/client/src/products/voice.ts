// Voice: POST /v1/voice, a call that speaks a message, and its status (service.md §6.1).
import type { MessageType } from '@x/service/request';
import type { TransactionStatus } from '@x/service';
import type { Send } from '../routing.js';
import type { RequestOptions, SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import * as v from '../validate.js';
import { common, content, type CommonParams } from './fields.js';

export interface VoiceCallParams extends CommonParams {
  message: string;
  messageType: MessageType;
  /** e.g. `f-en-US` (default). */
  voice?: string | undefined;
  callerId?: string | undefined;
}

export interface VoiceResponse {
  reference_id: string;
  external_id?: string | null;
  status: TransactionStatus;
  voice?: { user_input: string | null; caller_id: string | null };
}

export interface VoiceOperations {
  /** POST /v1/voice: places a call that speaks the message. Never placed twice. */
  call(params: VoiceCallParams, options?: SendOptions): Promise<ApiResponse<VoiceResponse>>;
  /** GET /v1/voice/{reference_id}. */
  status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<VoiceResponse>>;
}

export const voice = (send: Send): VoiceOperations => ({
  call: async (p, o) =>
    send<VoiceResponse>({
      host: 'rest',
      retry: 'unsent',
      method: 'POST',
      path: '/v1/voice',
      form: Object.assign(common(p, true), content(p), { voice: p.voice, caller_id: v.optional(p.callerId, (x) => v.phoneNumber(x, 'callerId')) }),
    }, o),
  status: async (id, o) => send<VoiceResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/voice/${v.referenceId(id)}` }, o),
});
