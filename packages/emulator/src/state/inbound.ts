// Inbound SMS (MO, service.md §10): an end user texts your number and the service POSTs
// a signed `mo_sms` callback to your callback URL. The emulator sends one on request, so that the
// inbound handler of an application can be tested end to end.
import type { CallbackSender } from './callbacks.js';
import { isHttpUrl, maskCredentials } from '../service/url.js';
import { InboundError } from '../errors.js';
import { randomHex } from '../service/ids.js';
import { statusOf, timestamp } from '../service/status.js';
import type { Customer } from '../types.js';

export interface InboundSms {
  /** The end user's number: digits with the country code (a leading "+" is dropped). */
  from: string;
  /** Your number that was texted (long code or short code), as `user_response.sender_id`. */
  to: string;
  /** What the user wrote: 1 to 1 600 characters. */
  text: string;
  /** Whose message it is. Default: the first account of the emulator. */
  customerId?: string;
  /** Where it goes. Default: the account's `callbackUrl`. */
  callbackUrl?: string;
}

/** The callback body (service.md §10). */
export interface InboundPayload {
  reference_id: string;
  sub_resource: 'mo_sms';
  status: { code: 1500; description: string; updated_on: string };
  submit_timestamp: string;
  errors: [];
  user_response: { phone_number: string; sender_id: string; mo_message: string };
}

export interface InboundResult {
  /** A random 32-hex id of the message. */
  referenceId: string;
  callbackUrl: string;
  payload: InboundPayload;
}

/** Checks the message, builds the signed callback and hands it to the sender (retries included). */
export function sendInbound(message: InboundSms, customers: Map<string, Customer>, callbacks: CallbackSender, now: number): InboundResult {
  if (typeof message !== 'object' || message === null) throw new InboundError('message', 'inbound() takes { from, to, text, customerId?, callbackUrl? }.');
  const { from, to, text, customerId, callbackUrl } = message;
  if (typeof from !== 'string' || !/^\+?\d{8,15}$/.test(from)) throw new InboundError('from', 'from must be the end user\'s number: 8 to 15 digits with the country code, e.g. "15555550100".');
  if (typeof to !== 'string' || !/^\+?\d{3,15}$/.test(to)) throw new InboundError('to', 'to must be your number that was texted: a long code or short code, 3 to 15 digits, e.g. "15555559999".');
  if (typeof text !== 'string' || text.length === 0 || [...text].length > 1600) throw new InboundError('text', 'text must be 1 to 1600 characters.');
  if (customerId !== undefined && (typeof customerId !== 'string' || !customers.has(customerId))) throw new InboundError('customerId', 'customerId must be an account of this emulator (its `customers`).');
  const customer = customerId !== undefined ? customers.get(customerId)! : customers.values().next().value;
  if (!customer) throw new InboundError('customerId', 'The emulator has no account to deliver the message to.');
  if (callbackUrl !== undefined && (typeof callbackUrl !== 'string' || !isHttpUrl(callbackUrl))) throw new InboundError('callbackUrl', 'callbackUrl must be an http(s) URL.');
  const url = callbackUrl ?? customer.callbackUrl;
  if (!url) {
    throw new InboundError('callbackUrl', 'No callback URL is known for this account: give the customer a callbackUrl (createEmulator({ customers: [{ ..., callbackUrl }] }), --callback-url) or pass callbackUrl.');
  }
  const referenceId = randomHex(16);
  const payload: InboundPayload = {
    status: statusOf(1500, now) as InboundPayload['status'],
    submit_timestamp: timestamp(now),
    errors: [],
    user_response: { phone_number: from.replace(/^\+/, ''), sender_id: to.replace(/^\+/, ''), mo_message: text },
    sub_resource: 'mo_sms',
    reference_id: referenceId,
  };
  callbacks.send(url, payload, customer, referenceId, { product: 'inbound', phoneNumber: payload.user_response.phone_number });
  return { referenceId, callbackUrl: maskCredentials(url), payload };
}
