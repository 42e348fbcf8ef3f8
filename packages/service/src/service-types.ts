// Data types the service uses in answers and callbacks alike (service service.md §3, §14.3).
// Type-only: they add nothing to a bundle.

export interface TransactionStatus {
  code: number;
  description: string;
  /** RFC 3339 (microseconds) in most answers; RFC 1123 in some SMS callback examples. */
  updated_on: string;
}

export interface ServiceError {
  code: number;
  description: string;
}

/** Present only when the matching optional features are enabled on the account. */
export interface AdditionalInfo {
  mcc?: string;
  mnc?: string;
  price?: string;
  currency?: string;
  /** A number in most documents, a string in one SMS example. */
  message_parts_count?: number | string;
  message_parts_reference_ids?: string;
  message_part_sequence_number?: number;
}
