// Types every product shares: the answer of a call and what an error body may carry. Each
// product's parameters and answers are in its own file under products/.
import type { ServiceError, TransactionStatus } from '@x/service';

/** What error bodies may carry, in either code family. */
export interface ServiceErrorBody {
  reference_id?: string;
  errors?: ServiceError[];
  status?: Partial<TransactionStatus>;
  signature_string?: string;
}

/** Every successful call answers with the parsed body and the HTTP details. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}
