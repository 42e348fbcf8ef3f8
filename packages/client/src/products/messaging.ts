// SMS: POST /v1/messaging and its status (service.md §3). Bulk SMS is in bulk-sms.ts.
import type { MessageType } from '@x/service/request';
import type { AdditionalInfo, TransactionStatus } from '@x/service';
import type { Send } from '../routing.js';
import type { RequestOptions, SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import * as v from '../validate.js';
import { bulkSms, type BulkSmsOperations } from './bulk-sms.js';
import { common, content, dlt, senderId, type CommonParams, type DltParams } from './fields.js';

export interface SendSmsParams extends CommonParams, DltParams {
  message: string;
  messageType: MessageType;
  /** At most 20 characters; must be allow-listed on the account. */
  senderId?: string | undefined;
}

export interface SmsResponse {
  reference_id: string;
  external_id?: string | null;
  status: TransactionStatus;
  additional_info?: AdditionalInfo;
}

export interface MessagingOperations extends BulkSmsOperations {
  /** POST /v1/messaging. Never sent twice: retried only on 429 or when it provably did not leave. */
  send(params: SendSmsParams, options?: SendOptions): Promise<ApiResponse<SmsResponse>>;
  /** GET /v1/messaging/{reference_id}. */
  status(referenceId: string, options?: RequestOptions): Promise<ApiResponse<SmsResponse>>;
}

/** `maxParts`: the client's limit on the parts of one message (0: none). */
export const messaging = (send: Send, maxParts: number): MessagingOperations => ({
  send: async (p, o) =>
    send<SmsResponse>({ host: 'rest', retry: 'unsent', method: 'POST', path: '/v1/messaging', form: Object.assign(common(p, true), content(p, maxParts), { sender_id: senderId(p.senderId) }, dlt(p)) }, o),
  status: async (id, o) => send<SmsResponse>({ host: 'rest', retry: 'idempotent', method: 'GET', path: `/v1/messaging/${v.referenceId(id)}` }, o),
  ...bulkSms(send),
});
