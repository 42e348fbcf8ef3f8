import { VERIFY_FAILURE_CODES, type VerifyFailure } from '@x/service/failures';

/**
 * The service's codes of each verification failure: positive 5-digit codes in `status.code`
 * (Messaging, Voice, PhoneID), negative codes in `errors[]` (SMS Verify), and the service's text.
 * The codes of `VERIFY_FAILURES` (`VERIFY_FAILURE_CODES`), kept under its earlier name.
 */
export const SERVICE_AUTH_CODES: Readonly<Record<VerifyFailure, { readonly positive: number; readonly negative: number; readonly text: string }>> = VERIFY_FAILURE_CODES;
