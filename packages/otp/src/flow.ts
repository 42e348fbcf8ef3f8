// The verification flow: start, resend (with fallback to another channel), check, cancel.
import { SMS_STATUS, XError } from '@x/auth';
import { encodeBase64, timingSafeEqual } from '@x/auth/protocol';
import type { Client } from '@x/client';
import { createGuard, type Guard, type GuardOptions, type RefusalReason } from './guard.js';
import { createMemoryStore } from './memory.js';
import { phoneDigits } from './number.js';
import { riskBlock, type RiskPolicy } from './risk.js';
import type { FlowRecord, OtpStore } from './store.js';

/** How a code reaches the user: an SMS (`verify.sms`) or a call that speaks it (`verify.call`). */
export type Channel = 'sms' | 'call';

/** Why the flow refused: the guard's reasons and the flow's own. */
export type FlowRefusalReason = RefusalReason | 'risk' | 'resend_cooldown' | 'resend_limit' | 'send_failed';

/** A refusal of the flow. `error` is the client's error on `send_failed`. */
export interface FlowRefusal {
  status: 'refused';
  reason: FlowRefusalReason;
  retryAfterMs: number;
  error?: unknown;
}

/** A code on its way: the flow's id, the channel, and the times left (0: no more resends). */
export interface Sent {
  status: 'sent';
  id: string;
  channel: Channel;
  expiresInMs: number;
  resendInMs: number;
}

/** What `start` answers. */
export type StartResult = Sent | FlowRefusal;

/** What `resend` answers. `expired`: the flow is gone, closed, or its code expired. */
export type SendResult = Sent | { status: 'expired' } | FlowRefusal;

/** What `check` answers. A flow answers `valid` once; then it is closed (`expired`). */
export type CheckResult =
  | { status: 'valid'; phoneNumber: string }
  | { status: 'invalid'; attemptsLeft: number }
  | { status: 'expired' }
  | { status: 'locked' }
  | FlowRefusal;

export interface StartRequest {
  /** Digits with the country code; "+", spaces, dashes, dots and parentheses are allowed. */
  phoneNumber: string;
  /** The end user's IP address (limits per IP; sent to the service as `originating_ip`). */
  ip?: string | undefined;
  /** Your id of the end user's account (limits per account). */
  account?: string | undefined;
  /** The first channel; default the first of `channels`. */
  channel?: Channel | undefined;
  /** `xx-XX`: the template's locale (and the service's predefined message language). */
  locale?: string | undefined;
}

/** One send of a flow's code, as an `OtpSender` gets it. */
export interface OtpMessage {
  /** The flow's id (the Verify API sender sends it as `external_id`). */
  id: string;
  /** Digits with the country code. */
  phoneNumber: string;
  /** The channel the flow chose (one of the sender's `channels`). */
  channel: Channel;
  /** The code to send; undefined when the service makes it (`codes: 'service'`). */
  code: string | undefined;
  /** The locale given to `start` (`xx-XX`). */
  locale: string | undefined;
  /** The end user's IP address given to `start`. */
  ip: string | undefined;
}

/**
 * How codes travel and how the service hears of them. The default uses the service's verify
 * endpoints (`verify.sms`, `verify.call`, `verify.status`, `verify.check`, `verify.complete`) with
 * `template` and `speech`; `verifyApiSender` of `@x/otp/verify-api` uses the Verify API.
 */
export interface OtpSender {
  /** The channels it sends on, in the default fallback order. */
  channels: readonly Channel[];
  /** Sends the code; answers the service's reference id. */
  send(client: Client, message: OtpMessage): Promise<string>;
  /** The service's verdict on the user's code (`codes: 'service'`). */
  check(client: Client, referenceId: string, code: string): Promise<'valid' | 'invalid' | 'expired'>;
  /** Tells the service the user typed the right code (`codes: 'sdk'`). */
  complete(client: Client, referenceId: string, code: string): Promise<unknown>;
  /** Delivery of the last SMS, for the fallback rule; without it the flow decides on time alone. */
  status?(client: Client, referenceId: string): Promise<'delivered' | 'pending' | 'undeliverable'>;
}

/** Something the application may want to log. Never carries a code. */
export type OtpEvent =
  | { type: 'fallback'; id: string; from: Channel; to: Channel; why: 'undeliverable' | 'unconfirmed' }
  | { type: 'completion_failed'; id: string; error: unknown };

export interface OtpOptions {
  /** The client that sends (`verify.sms`, `verify.call`) and checks (`verify.check`, `verify.complete`). */
  client: Client;
  /** Where flows (and, when `guard` is options, the guard's windows) live. Default: `createMemoryStore()`. */
  store?: OtpStore | undefined;
  /** The guard asked before every send: a guard, its options (sharing `store`), or false for none. Default: `createGuard` with its defaults on `store`. */
  guard?: Guard | GuardOptions | false | undefined;
  /**
   * `sdk` (default): the flow makes each code, keeps only its digest, compares in constant time and
   * reports success to the service (`verify.complete`); the same code goes by SMS and by call.
   * `service`: the service makes a code per send; `check` asks it (`verify.check`), against the last send.
   */
  codes?: 'sdk' | 'service' | undefined;
  /** Digits of a code the SDK makes, 4 to 7. Default 6. */
  codeLength?: number | undefined;
  /** Lifetime of a flow's code, from the start. Default 10 minutes. */
  codeTtlMs?: number | undefined;
  /** Wrong codes after which the flow is locked. Default 5. */
  maxAttempts?: number | undefined;
  /** Time between two sends of one flow. Default 30 s (not applied to a fallback after an undeliverable SMS). */
  resendCooldownMs?: number | undefined;
  /** Sends after the first. Default 3. */
  maxResends?: number | undefined;
  /** Channel order: a resend moves to the next one when the last send was undeliverable or not confirmed in `fallbackAfterMs`. Default `['sms', 'call']`. */
  channels?: readonly Channel[] | undefined;
  /** Time after which an SMS not confirmed delivered makes a resend fall back to the next channel. Default 60 s. */
  fallbackAfterMs?: number | undefined;
  /** The SMS text per locale, with `$$CODE$$` (see `otpTemplate`); undefined: the service's predefined message in that locale. */
  template?: string | ((locale: string | undefined) => string | undefined) | undefined;
  /** The spoken text per locale, with `$$CODE$$`; undefined: the service's predefined message. */
  speech?: ((locale: string | undefined) => string | undefined) | undefined;
  /**
   * How codes are sent and checked. Default: the service's verify endpoints (SMS, call, check,
   * completion), with `template` and `speech`. `verifyApiSender()` of `@x/otp/verify-api`: the Verify API.
   */
  sender?: OtpSender | undefined;
  /** A risk gate before the first send: asks the service (`score`, `intelligence` or `phoneId`) and refuses with `risk`. Off by default (each lookup is billed). */
  risk?: (RiskPolicy & { source: 'score' | 'intelligence' | 'phoneId'; failOpen?: boolean | undefined }) | undefined;
  onEvent?: ((event: OtpEvent) => void) | undefined;
  /** Clock, for tests. Default `Date.now`. */
  now?: (() => number) | undefined;
}

export interface Otp {
  /** Starts a verification: asks the guard, makes a code, sends it on the first channel. */
  start(request: StartRequest): Promise<StartResult>;
  /** Sends the code again, on `channel` when given (the user's request), else on the channel the fallback rule picks. */
  resend(id: string, options?: { channel?: Channel | undefined }): Promise<SendResult>;
  /** Checks what the user typed. Never throws on what the user typed. */
  check(id: string, code: string): Promise<CheckResult>;
  /** Closes a flow: later checks and resends answer `expired`. */
  cancel(id: string): Promise<{ status: 'cancelled' } | FlowRefusal>;
}

const SECOND = 1000;
const CHANNELS: readonly Channel[] = ['sms', 'call'];

const fail = (message: string): never => {
  throw new XError('invalid_options', message);
};
const whole = (value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER) => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(`createOtp: ${name} is ${String(value)}: pass a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}.`);
  return value as number;
};

/** A code of `length` digits, each equally likely (bytes 250-255 are skipped). */
function makeCode(length: number): string {
  let code = '';
  const bytes = new Uint8Array(length * 2);
  while (code.length < length) {
    crypto.getRandomValues(bytes);
    for (const byte of bytes) if (byte < 250 && code.length < length) code += String(byte % 10);
  }
  return code;
}

/**
 * The default sender: the service's verify endpoints, with the SMS text and the speech per locale.
 * (The status sets are made here, not at load, so that a bundle of the guard alone leaves them out.)
 */
const verifyEndpoints = (options: OtpOptions): OtpSender => {
  const delivered: readonly number[] = [SMS_STATUS.DELIVERED, SMS_STATUS.READ];
  /** SMS statuses that are not a failure: delivered, or on the way. Any other final status is undeliverable. */
  const fine: readonly number[] = [...delivered, SMS_STATUS.DELIVERED_TO_GATEWAY, SMS_STATUS.SENT_NO_CONFIRMATION, SMS_STATUS.IN_PROGRESS, SMS_STATUS.QUEUED, SMS_STATUS.QUEUED_BY_GATEWAY, SMS_STATUS.STATUS_DELAYED];
  return {
    channels: CHANNELS,
    async send(client, { phoneNumber, channel, code, locale, ip }) {
      const text = channel === 'sms' ? (typeof options.template === 'function' ? options.template(locale) : options.template) : options.speech?.(locale);
      const request = { phoneNumber, verifyCode: code, language: text ? undefined : locale, originatingIp: ip };
      return (await (channel === 'sms' ? client.verify.sms({ ...request, template: text }) : client.verify.call({ ...request, ttsMessage: text }))).data.reference_id;
    },
    async status(client, referenceId) {
      const code = (await client.verify.status(referenceId)).data.status.code;
      return delivered.includes(code) ? 'delivered' : fine.includes(code) ? 'pending' : 'undeliverable';
    },
    async check(client, referenceId, code) {
      if (code.length > 7) return 'invalid'; // verify.check takes 3 to 7 digits
      const state = (await client.verify.check(referenceId, code)).data.verify.code_state;
      return state === 'VALID' ? 'valid' : state === 'EXPIRED' ? 'expired' : 'invalid';
    },
    complete: (client, referenceId) => client.verify.complete(referenceId),
  };
};

/** SHA-256 of the flow id and a code, base64 (the platform's digest: no hash code in the bundle). */
const digestOf = async (id: string, code: string) => encodeBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${id}:${code}`))));
const refused = (reason: FlowRefusalReason, retryAfterMs = 0, error?: unknown): FlowRefusal => (error === undefined ? { status: 'refused', reason, retryAfterMs } : { status: 'refused', reason, retryAfterMs, error });
const UNAVAILABLE = /* @__PURE__ */ refused('store_unavailable');
/** What `stored` answers when the store failed. */
const FAILED = Symbol('store failed');
/** A store call; FAILED when the store throws (the caller answers UNAVAILABLE). */
async function stored<T>(op: () => T | Promise<T>): Promise<T | typeof FAILED> {
  try {
    return await op();
  } catch {
    return FAILED;
  }
}

/**
 * Phone verification with a one-time code: `start` asks the guard, then sends a code by SMS (or
 * call); `resend` sends it again after a cooldown, falling back to the next channel when the SMS
 * was undeliverable or not confirmed in time, or on the user's request; `check` compares what the
 * user typed, counting attempts; `cancel` closes the flow. Each answers a typed result and never
 * throws for a refusal. Flows live in the store, so any process sharing it can continue one.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { createOtp, otpTemplate } from '@x/otp';
 *
 * const otp = createOtp({ client: createClient(), template: (locale) => otpTemplate({ locale, brand: 'Acme', webOtpDomain: 'acme.example' }) });
 * const started = await otp.start({ phoneNumber: '+1 555 555 0100', ip: '203.0.113.7' });
 * if (started.status === 'sent') {
 *   const checked = await otp.check(started.id, userInput); // { status: 'valid', phoneNumber } or why not
 *   if (checked.status === 'valid') signIn();
 * }
 * ```
 */
export function createOtp(options: OtpOptions): Otp {
  const client = options?.client;
  if (!client || typeof client.verify?.sms !== 'function') fail('createOtp needs { client }: a client of @x/client, e.g. createClient().');
  const store = options.store ?? createMemoryStore();
  const guard = options.guard === false ? undefined : options.guard && 'check' in options.guard ? options.guard : createGuard({ store, ...(options.guard as GuardOptions | undefined) });
  const now = options.now ?? Date.now;
  const onEvent = options.onEvent ?? (() => {});
  const sdkCodes = (options.codes ?? 'sdk') === 'sdk';
  if (options.codes !== undefined && options.codes !== 'sdk' && options.codes !== 'service') fail(`createOtp: codes is ${String(options.codes)}: pass 'sdk' or 'service'.`);
  const codeLength = whole(options.codeLength ?? 6, 'codeLength', 4, 7);
  const codeTtlMs = whole(options.codeTtlMs ?? 600 * SECOND, 'codeTtlMs', 1);
  const maxAttempts = whole(options.maxAttempts ?? 5, 'maxAttempts', 1);
  const cooldownMs = whole(options.resendCooldownMs ?? 30 * SECOND, 'resendCooldownMs', 0);
  const maxSends = 1 + whole(options.maxResends ?? 3, 'maxResends', 0);
  const fallbackAfterMs = whole(options.fallbackAfterMs ?? 60 * SECOND, 'fallbackAfterMs', 0);
  const sender = options.sender ?? verifyEndpoints(options);
  const channels = options.channels ?? sender.channels;
  if (!Array.isArray(channels) || channels.length === 0 || channels.some((c) => !sender.channels.includes(c)) || new Set(channels).size !== channels.length) {
    fail(`createOtp: channels must list ${sender.channels.join(' and/or ')} once each, in the order to try them.`);
  }

  const channelIndex = (channel: Channel | undefined, fallback: number) => {
    if (channel === undefined) return fallback;
    const index = channels.indexOf(channel);
    if (index < 0) throw new XError('invalid_request', `otp: channel ${String(channel)} is not one of this flow's channels (${channels.join(', ')}).`);
    return index;
  };

  /** Sends the flow's code on a channel; answers the service's reference id. */
  const send = (record: FlowRecord, channel: Channel, code: string | undefined) =>
    sender.send(client, { id: record.id, phoneNumber: record.phoneNumber, channel, code, locale: record.locale || undefined, ip: record.ip || undefined });

  /** The channel a resend without the user's choice takes, and whether the last one failed. */
  const nextChannel = async (record: FlowRecord, at: number): Promise<{ index: number; undeliverable: boolean }> => {
    const from = channels[record.channel]!;
    const to = channels[record.channel + 1];
    let why: 'undeliverable' | 'unconfirmed' | undefined;
    if (to && from === 'sms' && record.referenceId) {
      let state: 'delivered' | 'pending' | 'undeliverable' | undefined;
      try {
        state = await sender.status?.(client, record.referenceId);
      } catch {
        state = undefined; // no status: decide on time alone
      }
      why = state === 'undeliverable' ? state : state !== 'delivered' && at - record.lastSendAt >= fallbackAfterMs ? 'unconfirmed' : undefined;
    }
    if (!why) return { index: record.channel, undeliverable: false };
    onEvent({ type: 'fallback', id: record.id, from, to: to!, why });
    return { index: record.channel + 1, undeliverable: why === 'undeliverable' };
  };

  const riskGate = async (digits: string): Promise<FlowRefusal | undefined> => {
    const risk = options.risk;
    if (!risk) return undefined;
    try {
      const params = { accountLifecycleEvent: 'sign-in' } as const;
      const { data } = await (risk.source === 'score' ? client.score.lookup(digits, params) : risk.source === 'intelligence' ? client.intelligence.phone({ phoneNumber: digits, ...params }) : client.phoneId.lookup(digits));
      return riskBlock(data, risk) ? refused('risk') : undefined;
    } catch (error) {
      return risk.failOpen ? undefined : refused('risk', 0, error);
    }
  };

  return {
    async start(request) {
      const digits = phoneDigits(request?.phoneNumber);
      if (!digits) return refused('invalid_number');
      const first = channelIndex(request.channel, 0);
      const locale = request.locale;
      if (locale !== undefined && (typeof locale !== 'string' || !/^[a-z]{2}-[A-Z]{2}$/.test(locale))) throw new XError('invalid_request', `otp.start: locale must look like "en-US" (got ${JSON.stringify(locale)}).`);
      if (guard) {
        const decision = await guard.check({ phoneNumber: digits, ip: request.ip, account: request.account });
        if (!decision.allowed) return refused(decision.reason, decision.retryAfterMs);
      }
      const blocked = await riskGate(digits);
      if (blocked) return blocked;
      const at = now();
      const id = crypto.randomUUID();
      const code = sdkCodes ? makeCode(codeLength) : undefined;
      const record: FlowRecord = {
        id, phoneNumber: digits, state: 'pending', channel: first, referenceId: '', codeDigest: code ? await digestOf(id, code) : '',
        createdAt: at, expiresAt: at + codeTtlMs, sends: 1, lastSendAt: at, attempts: 0, locale: locale ?? '', ip: request.ip ?? '', account: request.account ?? '',
      };
      if ((await stored(() => store.createFlow(record, codeTtlMs))) === FAILED) return UNAVAILABLE;
      let referenceId: string;
      try {
        referenceId = await send(record, channels[first]!, code);
      } catch (error) {
        await Promise.resolve(store.deleteFlow(id)).catch(() => {});
        return refused('send_failed', 0, error);
      }
      if ((await stored(() => store.updateFlow(id, { referenceId }))) === FAILED) return UNAVAILABLE;
      return { status: 'sent', id, channel: channels[first]!, expiresInMs: codeTtlMs, resendInMs: maxSends > 1 ? cooldownMs : 0 };
    },

    async resend(id, choice) {
      if (typeof id !== 'string') return { status: 'expired' };
      const at = now();
      let record = await stored(() => store.getFlow(id, at));
      if (record === FAILED) return UNAVAILABLE;
      if (!record || record.state !== 'pending' || at >= record.expiresAt) return { status: 'expired' };
      const asked = choice?.channel === undefined ? undefined : channelIndex(choice.channel, record.channel);
      const next = asked === undefined ? await nextChannel(record, at) : { index: asked, undeliverable: false };
      const claim = await stored(() => store.claimSend(id, now(), next.undeliverable ? 0 : cooldownMs, maxSends));
      if (claim === FAILED) return UNAVAILABLE;
      if (!claim.ok) {
        if (claim.reason === 'cooldown') return refused('resend_cooldown', claim.retryAfterMs);
        if (claim.reason === 'max') return refused('resend_limit', claim.retryAfterMs);
        return { status: 'expired' };
      }
      record = claim.record;
      if (guard) {
        const decision = await guard.check({ phoneNumber: record.phoneNumber, ip: record.ip || undefined, account: record.account || undefined, resend: true });
        if (!decision.allowed) return refused(decision.reason, decision.retryAfterMs);
      }
      const channel = channels[next.index]!;
      // The SDK's code cannot be read back from its digest: a resend in sdk mode sends a new code.
      const code = sdkCodes ? makeCode(codeLength) : undefined;
      let referenceId: string;
      if (code && (await stored(async () => store.updateFlow(id, { codeDigest: await digestOf(id, code) }))) === FAILED) return UNAVAILABLE;
      try {
        referenceId = await send(record, channel, code);
      } catch (error) {
        return refused('send_failed', 0, error);
      }
      if ((await stored(() => store.updateFlow(id, { channel: next.index, referenceId }))) === FAILED) return UNAVAILABLE;
      const resendInMs = record.sends < maxSends ? cooldownMs : 0;
      return { status: 'sent', id, channel, expiresInMs: record.expiresAt - at, resendInMs };
    },

    async check(id, code) {
      if (typeof id !== 'string') return { status: 'expired' };
      const at = now();
      const record = await stored(() => store.claimAttempt(id, at));
      if (record === FAILED) return UNAVAILABLE;
      if (!record || record.state !== 'pending' || at >= record.expiresAt) return { status: 'expired' };
      if (record.attempts > maxAttempts) return { status: 'locked' };
      const attemptsLeft = maxAttempts - record.attempts;
      const typed = typeof code === 'string' && /^\d{3,10}$/.test(code) ? code : undefined;
      let valid = false;
      if (typed && sdkCodes) valid = timingSafeEqual(await digestOf(id, typed), record.codeDigest);
      else if (typed && record.referenceId) {
        try {
          const verdict = await sender.check(client, record.referenceId, typed);
          if (verdict === 'expired') return { status: 'expired' };
          valid = verdict === 'valid';
        } catch (error) {
          return refused('send_failed', 0, error);
        }
      }
      if (!valid) return { status: 'invalid', attemptsLeft };
      const closed = await stored(() => store.closeFlow(id, 'valid'));
      if (closed === FAILED) return UNAVAILABLE;
      if (!closed) return { status: 'expired' }; // another check of this flow won
      if (guard) await guard.completed(record.phoneNumber);
      if (sdkCodes && record.referenceId) {
        await sender.complete(client, record.referenceId, typed!).catch((error: unknown) => onEvent({ type: 'completion_failed', id, error }));
      }
      return { status: 'valid', phoneNumber: record.phoneNumber };
    },

    async cancel(id) {
      if (typeof id === 'string' && (await stored(() => store.closeFlow(id, 'cancelled'))) === FAILED) return UNAVAILABLE;
      return { status: 'cancelled' };
    },
  };
}
