// What the benchmarks send, in one place: the signed callback the adapter servers verify, and the
// signed SMS POST the emulator serves (each request signed afresh: its own nonce).
import { createSigner } from '@x/auth';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { createSignedCallback } from '@x/webhooks/testing';

const payload = { reference_id: 'B56259E45884010488343BAA15FB0002', sub_resource: 'sms', errors: [], status: { code: 200, description: 'Delivered to handset', updated_on: '2016-10-21T14:05:36.181346Z' }, verify: { code_state: 'UNKNOWN', code_entered: null } };

/** The signed callback: its body, headers, and the signature alone (what a stubbed HMAC returns). */
export const callback = createSignedCallback(payload, DEFAULT_CUSTOMER);
const authorization = Object.entries(callback.headers).find(([name]) => name.toLowerCase() === 'authorization')[1];
export const callbackSignature = authorization.slice(authorization.indexOf(':') + 1);

export const SMS_FORM = 'application/x-www-form-urlencoded';
export const SMS_BODY = 'phone_number=15555550100&message=Hello&message_type=ARN';
const signer = createSigner(DEFAULT_CUSTOMER);

/** An autocannon setupRequest for a server at `url`: POST /v1/messaging, signed by @x/auth with a fresh nonce. */
export const signedSms = (url) => (req) => ({
  ...req,
  method: 'POST',
  path: '/v1/messaging',
  body: SMS_BODY,
  headers: signer.sign({ method: 'POST', url: `${url}/v1/messaging`, contentType: SMS_FORM, body: SMS_BODY }).headers,
});
