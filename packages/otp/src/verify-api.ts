/**
 * The Verify API as the flow's sender: each send creates a verification (`verifyApi.create`, the
 * flow's code as its security factor), and the code is settled with `verifyApi.finalize`.
 *
 * @packageDocumentation
 * @module @x/otp/verify-api
 */
import { XError } from '@x/auth';
import type { Client, VerificationStep } from '@x/client';
import type { OtpSender } from './flow.js';

/** The verifications `verifyApiSender` creates. */
export interface VerifyApiSenderOptions {
  /** The methods the service tries, in order, with their fallback times (`[{ method: 'sms' }, { method: 'whatsapp' }]`). Default: the account's routing, else SMS. Not `email`: the flow verifies a phone number. */
  policy?: VerificationStep[] | undefined;
  /** The name of a message template the account has for every method of the policy. */
  template?: string | undefined;
}

/** Finalize answers that end the verification: 3904 rejected or failed, 3931 already finalized, 3935 code expired. */
const OVER = [3904, 3931, 3935];
/** Submits a code: the service's answer code (3900 verified). */
const finalize = async (client: Client, referenceId: string, code: string) => (await client.verifyApi.finalize(referenceId, code)).data.status.code;

/**
 * Sends the flow's codes with the Verify API instead of the verify endpoints: every send (start and
 * resend) creates a verification whose policy the service follows, falling back between its own
 * methods (SMS, WhatsApp, Viber, RCS) after their fallback times; the flow's id goes as
 * `external_id`. With `codes: 'sdk'` (the default) the flow's code is the verification's security
 * factor and a right code finalizes it (finalizing is mandatory); with `codes: 'service'` each check
 * finalizes with what the user typed. Its one flow channel is `sms` (the Verify API has no call).
 * A finalize the service does not accept is an `OtpEvent` `completion_failed` (keep `codeTtlMs`
 * within the account's code validity, 300 s by default, so that it does not happen).
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createOtp } from '@x/otp';
 * import { verifyApiSender } from '@x/otp/verify-api';
 *
 * const otp = createOtp({
 *   client: createClient(),
 *   sender: verifyApiSender({ policy: [{ method: 'sms', fallbackTime: 60 }, { method: 'whatsapp' }] }),
 * });
 * const started = await otp.start({ phoneNumber: '+1 555 555 0100' });
 * ```
 */
export function verifyApiSender(options: VerifyApiSenderOptions = {}): OtpSender {
  const { policy, template } = options;
  if (policy !== undefined && (!Array.isArray(policy) || policy.some((step) => step?.method === 'email'))) {
    throw new XError('invalid_options', "verifyApiSender: policy must be a list of steps without 'email', e.g. [{ method: 'sms' }].");
  }
  return {
    channels: ['sms'],
    async send(client, { id, phoneNumber, code }) {
      return (await client.verifyApi.create({ phoneNumber, policy, template, securityFactor: code, externalId: id })).data.reference_id;
    },
    async check(client, referenceId, code) {
      const status = await finalize(client, referenceId, code);
      return status === 3900 ? 'valid' : OVER.includes(status) ? 'expired' : 'invalid';
    },
    async complete(client, referenceId, code) {
      const status = await finalize(client, referenceId, code);
      if (status !== 3900) throw new XError('verification_not_finalized', `verifyApi.finalize answered ${status}: keep codeTtlMs within the code validity.`);
    },
  };
}
