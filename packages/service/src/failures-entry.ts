/**
 * Why a signed request fails verification: each reason with the verifier's answer, the service's
 * codes and text, and what to do (`VERIFY_FAILURES`, and each of its parts as a table of its own, so a bundle that reads one
 * part carries only that part), and the reason a service code names
 * (`verifyFailureOf`). `@x/auth` and `@x/client` re-export it.
 *
 * @packageDocumentation
 * @module @x/service/failures
 */
export { VERIFY_FAILURES, VERIFY_FAILURE_ADVICE, VERIFY_FAILURE_CODES, VERIFY_FAILURE_MESSAGES, VERIFY_FAILURE_REASONS, VERIFY_FAILURE_TEXTS, verifyFailureOf } from './failures.js';
export type { VerifyFailure, VerifyFailureFacts } from './failures.js';
