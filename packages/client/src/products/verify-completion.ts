// Verify completion: PUT /v1/verify/completion/{reference_id} (service.md §5.3). In the own-code flow
// you compare the codes yourself, then tell the service the verification succeeded.
import type { Send } from '../routing.js';
import type { RequestOptions } from '../transport/index.js';
import type { ApiResponse } from '../types.js';
import type { ServiceError, TransactionStatus } from '@x/service';
import * as v from '../validate.js';

/**
 * Answer of `verify.complete`. Typed after the 2017 capture (`sub_resource`, integer code 1900
 * "Verify completion successfully recorded"); the OpenAPI copy names it `subresource` with a string code.
 */
export interface VerifyCompletionResponse {
  reference_id: string;
  resource_uri?: string;
  sub_resource?: 'sms' | 'call';
  errors: ServiceError[];
  status: TransactionStatus;
}

export interface VerifyCompletionOperations {
  /**
   * PUT /v1/verify/completion/{reference_id}: reports that the user entered the right code (own-code
   * flow, SMS or voice). With a code the service generated, use `verify.check` instead.
   */
  complete(referenceId: string, options?: RequestOptions): Promise<ApiResponse<VerifyCompletionResponse>>;
}

export const verifyCompletion = (send: Send): VerifyCompletionOperations => ({
  // No body parameters are documented (service.md §5.3); the interface document wants a Content-Type
  // on PUT and the official Node SDK sends its form content type: an empty form (signed without a
  // body line). A PUT that records a fact: retried like a GET.
  complete: async (id, o) => send<VerifyCompletionResponse>({ host: 'rest', retry: 'idempotent', method: 'PUT', path: `/v1/verify/completion/${v.referenceId(id)}`, form: {} }, o),
});
