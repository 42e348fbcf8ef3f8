// Bulk SMS: POST /v1/verify/bulk_sms (service.md §9). One request, up to 1000 recipients; results
// arrive only as callbacks (one per recipient), there is no status endpoint.
import { USE_CASE_CODES } from '@x/service/request';
import { ValidationError } from '../errors.js';
import { BULK_SMS } from '../facts.js';
import type { Send } from '../routing.js';
import type { SendOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { ServiceError, TransactionStatus } from '@x/service';
import type { UseCaseCode } from '@x/service/request';
import * as v from '../validate.js';

/** A number, or a number with your id for it (echoed as `session_id` in its delivery callback). */
export type BulkRecipient = string | { phoneNumber: string; id?: string | undefined };

export interface BulkSmsParams {
  /** 1 to 1000 recipients. */
  recipients: readonly BulkRecipient[];
  /** The message text. */
  template: string;
  ucid?: UseCaseCode | undefined;
  /** Your id for the whole request; a recipient's callback carries it when the recipient has no id. */
  sessionId?: string | undefined;
  /** Escape hatch: more form fields, sent as given (snake_case names). */
  extra?: Record<string, string> | undefined;
}

export interface BulkSmsResponse {
  reference_id: string;
  sub_resource: 'bulk_sms';
  /** 293 "Bulk request accepted". */
  status: TransactionStatus;
  errors: ServiceError[];
}

export interface BulkSmsOperations {
  /** POST /v1/verify/bulk_sms: one message to up to 1000 numbers. Sent once, never re-sent. */
  bulk(params: BulkSmsParams, options?: SendOptions): Promise<ApiResponse<BulkSmsResponse>>;
}

function recipients(list: unknown): string {
  if (!Array.isArray(list) || list.length === 0 || list.length > BULK_SMS.maxRecipients) {
    throw new ValidationError('recipients', `must list 1 to ${BULK_SMS.maxRecipients} numbers.`);
  }
  return list
    .map((r: unknown, i) => {
      if (typeof r === 'string') return v.phoneNumber(r, `recipients[${i}]`);
      const { phoneNumber, id } = v.record<unknown>(r, `recipients[${i}]`);
      const number = v.phoneNumber(phoneNumber, `recipients[${i}].phoneNumber`);
      if (id === undefined) return number;
      const text = v.string(id, `recipients[${i}].id`);
      if (text.includes(BULK_SMS.separator) || text.includes(BULK_SMS.idSeparator)) {
        throw new ValidationError(`recipients[${i}].id`, `must not contain "${BULK_SMS.separator}" or "${BULK_SMS.idSeparator}": they separate the recipients.`);
      }
      return `${number}${BULK_SMS.idSeparator}${text}`;
    })
    .join(BULK_SMS.separator);
}

export const bulkSms = (send: Send): BulkSmsOperations => ({
  bulk: async (p, o) => {
    v.params(p);
    const form = {
      ...(v.optional(p.extra, (x) => v.record<string>(x, 'extra')) ?? {}),
      recipients: recipients(p.recipients),
      template: v.text(p.template, 'template', BULK_SMS.templateMaxLength),
      ucid: v.optional(p.ucid, (x) => v.oneOf(x, 'ucid', USE_CASE_CODES)),
      session_id: v.optional(p.sessionId, (x) => v.string(x, 'sessionId')),
    };
    return send<BulkSmsResponse>({ host: 'rest', retry: 'never', method: 'POST', path: '/v1/verify/bulk_sms', form }, o);
  },
});
