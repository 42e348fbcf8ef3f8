// The verification flow: start, resend (with fallback to another channel), check, cancel.
import { SMS_STATUS, XError } from '@x/auth';
import { timingSafeEqual } from '@x/auth/protocol';
import type { Client } from '@x/client';
import { bounded } from './bounded.js';
import { guardCore, type Guard, type GuardEvent, type GuardOptions, type Prepared, type RefusalReason } from './guard.js';
import { canonicalAddress } from './ip.js';
import { createMemoryStore } from './memory.js';
import { canonicalNumber, typedDigits } from './number.js';
import { normalLocale } from './locale.js';
import { riskBlock, type RiskPolicy } from './risk.js';
import { codeOf, macOf } from './secret.js';
import type { FlowRecord, GuardVerdict, OtpStore, SendClaim } from './store.js';

/** How a code reaches the user: an SMS (`verify.sms`) or a call that speaks it (`verify.call`). */
export type Channel = 'sms' | 'call';

/** Why the flow refused: the guard's reasons and the flow's own. */
export type FlowRefusalReason = RefusalReason | 'risk' | 'resend_cooldown' | 'resend_limit' | 'send_failed';

/**
 * A refusal of the flow: nothing was sent. `retryAfterMs` is 0 when waiting does not help. On
 * `send_failed` (the service refused the send, or could not be reached before it), `error` is the
 * client's error, and `status` and `serviceCode` the service's answer when there was one.
 */
export interface FlowRefusal {
  status: 'refused';
  reason: FlowRefusalReason;
  retryAfterMs: number;
  error?: unknown;
  httpStatus?: number | undefined;
  serviceCode?: number | undefined;
}

/**
 * A code on its way: the flow's id, the channel, and the times left (0: no more resends).
 * `unconfirmed`: the send's outcome is unknown (no answer from the service, or the store could not
 * record it): the code may have reached the phone, so keep the id, let the user type the code, and
 * offer `resend` (the same code) rather than a new start.
 */
export interface Sent {
  status: 'sent';
  id: string;
  channel: Channel;
  expiresInMs: number;
  resendInMs: number;
  unconfirmed?: true | undefined;
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
  /** The number in any spelling: international ("+44 (0)7700 900123"), digits with the country code, or national with the guard's `defaultCountry`. */
  phoneNumber: string;
  /** The end user's IP address (limits per IP; sent to the service as `originating_ip`). */
  ip?: string | undefined;
  /** Your id of the end user's account (limits per account). */
  account?: string | undefined;
  /** The first channel; default the first of `channels`. */
  channel?: Channel | undefined;
  /**
   * The user's locale, as a browser sends it (`en`, `en-GB`, `en_gb`): the template's locale and
   * the service's predefined message language (`xx-XX`). One the flow cannot read falls back to the
   * service's default, with a `locale_fallback` event.
   */
  locale?: string | undefined;
  /** True when you vouch for the number (an existing customer's): it passes a range or country cooling after pumping. */
  trusted?: boolean | undefined;
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
  /** The locale given to `start`, as `xx-XX` (or `xx` when no region is known). */
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

/**
 * Something the application may want to log: the guard's events, and the flow's own. Never
 * carries a code or a whole phone number. `send_unknown`: a send whose outcome is unknown (it
 * answered `sent` with `unconfirmed`); `send_failed`: a send the service refused or that never left;
 * `store_unavailable` with an `id`: the store failed after a send (the send stands).
 */
export type OtpEvent =
  | GuardEvent
  | { type: 'fallback'; id: string; from: Channel; to: Channel; why: 'undeliverable' | 'unconfirmed' }
  | { type: 'completion_failed'; id: string; error: unknown }
  | { type: 'send_failed'; id: string; channel: Channel; error: unknown; httpStatus?: number | undefined; serviceCode?: number | undefined }
  | { type: 'send_unknown'; id: string; channel: Channel; error: unknown }
  | { type: 'locale_fallback'; locale: string }
  | { type: 'store_unavailable'; id: string; operation: 'record_send' | 'delete_flow'; error: unknown };

export interface OtpOptions {
  /** The client that sends (`verify.sms`, `verify.call`) and checks (`verify.check`, `verify.complete`). */
  client: Client;
  /** Where flows (and, when `guard` is options, the guard's windows) live. Default: `createMemoryStore()`. */
  store?: OtpStore | undefined;
  /** The guard asked before every send: a guard, its options (sharing `store`), or false for none. Default: `createGuard` with its defaults on `store`. */
  guard?: Guard | GuardOptions | false | undefined;
  /**
   * `sdk` (default): the flow makes the code from `secret` and the flow's id, stores nothing it can
   * be computed from, compares in constant time and reports success to the service
   * (`verify.complete`). Every send of a flow (a resend, the fallback call) carries the same code,
   * so a late SMS's code still works. `service`: the service makes a code per send; `check` asks it
   * (`verify.check`), against the last send.
   */
  codes?: 'sdk' | 'service' | undefined;
  /**
   * The secret codes are made from (at least 32 characters or bytes, e.g. `openssl rand -base64 32`
   * kept in your secret store): the same in every process sharing a store. Required with a store
   * shared between processes (`@x/otp/redis`); with the memory store, a random one is made.
   */
  secret?: string | Uint8Array | undefined;
  /** Time limit of each store call, in milliseconds (also the guard's, when `guard` is options). Default 1 000. */
  storeTimeoutMs?: number | undefined;
  /** Digits of a code the SDK makes, 4 to 7. Default 6. */
  codeLength?: number | undefined;
  /** Lifetime of a flow's code, from the start. Default 10 minutes. */
  codeTtlMs?: number | undefined;
  /** Wrong codes allowed: the last one locks the flow. Default 5. */
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
  /** The flow's events and, when `guard` is options, the guard's (also given to the guard's own `onEvent`). */
  onEvent?: ((event: OtpEvent) => void) | undefined;
  /** Clock, for tests (shared with the guard when `guard` is options). Default `Date.now`, read at each call. */
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

const refused = (reason: FlowRefusalReason, retryAfterMs = 0, error?: unknown): FlowRefusal => (error === undefined ? { status: 'refused', reason, retryAfterMs } : { status: 'refused', reason, retryAfterMs, error });
const UNAVAILABLE = /* @__PURE__ */ refused('store_unavailable');
/** What `stored` answers when the store failed or did not answer in time. */
const FAILED = Symbol('store failed');

/**
 * Whether a failed send may have reached the phone: false when the client says nothing left (or
 * the service refused it with a 4xx), 'unknown' otherwise (no answer, a 5xx, a sender's own error).
 */
function mayHaveSent(error: unknown): false | 'unknown' {
  const e = error as { sent?: unknown; status?: unknown; code?: unknown } | undefined;
  if (e?.sent === false) return false;
  if (typeof e?.status === 'number') return e.status < 500 ? false : 'unknown';
  if (e?.code === 'validation_error' || e?.code === 'configuration_error') return false;
  return 'unknown';
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
  if (store.shared && options.secret === undefined) {
    fail('createOtp: a store shared between processes needs { secret }: the same secret of at least 32 characters in every process (e.g. `openssl rand -base64 32`, from your secret store), so that any process can check a code another one sent.');
  }
  const mac = macOf(options.secret, 'createOtp: secret');
  const clock = options.now;
  const now = clock ?? (() => Date.now());
  const onEvent = options.onEvent ?? (() => {});
  const timeoutMs = whole(options.storeTimeoutMs ?? 1000, 'storeTimeoutMs', 1);
  const asked = options.guard;
  /** The guard `createOtp` runs itself (on its store: one step with the flow's own), or one given to it. */
  const core = asked === false || (asked && 'check' in asked) ? undefined : guardCore({
    store, now: clock, storeTimeoutMs: timeoutMs, ...(asked as GuardOptions | undefined),
    onEvent: (event) => {
      (asked as GuardOptions | undefined)?.onEvent?.(event);
      onEvent(event);
    },
  });
  const guard = asked && 'check' in asked ? (asked as Guard) : undefined;
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

  /** A store call within the time limit; FAILED when it throws or does not answer in time. */
  const stored = async <T>(op: () => T | Promise<T>): Promise<T | typeof FAILED> => {
    try {
      return await bounded(timeoutMs, op);
    } catch {
      return FAILED;
    }
  };

  const channelIndex = (channel: Channel | undefined, fallback: number) => {
    if (channel === undefined) return fallback;
    const index = channels.indexOf(channel);
    if (index < 0) throw new XError('invalid_request', `otp: channel ${String(channel)} is not one of this flow's channels (${channels.join(', ')}).`);
    return index;
  };

  /**
   * Sends the flow's code on a channel. Answers the service's reference id; `unknown` when the send
   * may have gone out without an answer; a refusal when nothing went out.
   */
  const send = async (record: FlowRecord, channel: Channel): Promise<{ referenceId: string } | { unknown: unknown } | FlowRefusal> => {
    const code = sdkCodes ? await codeOf(mac, record.id, codeLength) : undefined;
    try {
      return { referenceId: await sender.send(client, { id: record.id, phoneNumber: record.phoneNumber, channel, code, locale: record.locale || undefined, ip: record.ip || undefined }) };
    } catch (error) {
      if (mayHaveSent(error)) {
        onEvent({ type: 'send_unknown', id: record.id, channel, error });
        return { unknown: error };
      }
      const e = error as { status?: number; serviceCode?: number };
      onEvent({ type: 'send_failed', id: record.id, channel, error, httpStatus: e?.status, serviceCode: e?.serviceCode });
      return { ...refused('send_failed', 0, error), httpStatus: e?.status, serviceCode: e?.serviceCode };
    }
  };

  /** Records a send's reference and channel; a store failure here leaves the send standing (reported). */
  const recorded = async (id: string, fields: Partial<Pick<FlowRecord, 'channel' | 'referenceId'>>) => {
    const done = await stored(() => store.updateFlow(id, fields));
    if (done !== FAILED) return true;
    onEvent({ type: 'store_unavailable', id, operation: 'record_send', error: new Error('The store did not record the send.') });
    return false;
  };

  /** The channel a resend without the user's choice takes, and whether the last one failed. */
  const nextChannel = async (record: FlowRecord, at: number): Promise<{ index: number; undeliverable: boolean }> => {
    const from = channels[record.channel]!;
    const to = channels[record.channel + 1];
    let why: 'undeliverable' | 'unconfirmed' | undefined;
    if (to && from === 'sms') {
      let state: 'delivered' | 'pending' | 'undeliverable' | undefined;
      try {
        state = record.referenceId ? await sender.status?.(client, record.referenceId) : undefined;
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

  /** The guard's answer for a plan, run with `then` in the same store step when the guard is ours. */
  const decided = async (prepared: Prepared, then: Parameters<OtpStore['decide']>[1]): Promise<GuardVerdict | SendClaim | FlowRefusal> => {
    const verdict = await stored(() => store.decide(prepared.plan, then));
    if (verdict === FAILED) {
      const decision = core!.unavailable(new Error('The store failed or did not answer in time.'), prepared.country);
      // Failing open lets the send through unchecked, but a flow still needs the store.
      return decision.allowed ? UNAVAILABLE : refused(decision.reason);
    }
    if ('ok' in verdict || verdict.allowed) return verdict;
    const decision = core!.interpret(prepared, verdict);
    return decision.allowed ? verdict : refused(decision.reason, decision.retryAfterMs);
  };

  const localeOf = (locale: unknown) => {
    if (locale === undefined) return '';
    const normal = normalLocale(locale);
    if (normal === undefined) onEvent({ type: 'locale_fallback', locale: String(locale).slice(0, 35) });
    return normal ?? '';
  };

  /** What a send answers when its outcome is not a refusal. */
  const sentOf = (record: FlowRecord, index: number, at: number, sends: number, unconfirmed: boolean): Sent => ({
    status: 'sent', id: record.id, channel: channels[index]!, expiresInMs: Math.max(0, record.expiresAt - at), resendInMs: sends < maxSends ? cooldownMs : 0,
    ...(unconfirmed ? { unconfirmed: true as const } : {}),
  });

  return {
    async start(request) {
      const first = channelIndex(request?.channel, 0);
      const locale = localeOf(request?.locale);
      const ask = { phoneNumber: request?.phoneNumber, ip: request?.ip, account: request?.account, trusted: request?.trusted === true };
      let prepared: Prepared | undefined;
      let digits: string;
      if (core) {
        const ready = await core.prepare(ask);
        if ('allowed' in ready) return refused(ready.reason, ready.retryAfterMs);
        prepared = ready;
        digits = ready.digits;
      } else {
        const number = canonicalNumber(ask.phoneNumber);
        if (!number) return refused('invalid_number');
        if (guard) {
          const decision = await guard.check(ask);
          if (!decision.allowed) return refused(decision.reason, decision.retryAfterMs);
        }
        digits = number.digits;
      }
      const ip = canonicalAddress(request.ip);
      if (request.ip !== undefined && ip === undefined) return refused('invalid_ip');
      const at = now();
      const record: FlowRecord = {
        id: crypto.randomUUID(), phoneNumber: digits, state: 'pending', channel: first, referenceId: '',
        createdAt: at, expiresAt: at + codeTtlMs, sends: 1, lastSendAt: at, attempts: 0, locale, ip: ip ?? '', account: request.account ?? '',
      };
      const create = { record, ttlMs: codeTtlMs };
      if (prepared && !options.risk) {
        const verdict = await decided({ ...prepared, plan: { ...prepared.plan, now: at } }, { create });
        if ('status' in verdict) return verdict;
      } else {
        if (prepared) {
          const verdict = await decided(prepared, undefined);
          if ('status' in verdict) return verdict;
        }
        const blocked = await riskGate(digits);
        if (blocked) return blocked;
        if ((await stored(() => store.createFlow(create))) === FAILED) return UNAVAILABLE;
      }
      const outcome = await send(record, channels[first]!);
      if ('status' in outcome) {
        if ((await stored(() => store.deleteFlow(record.id))) === FAILED) {
          onEvent({ type: 'store_unavailable', id: record.id, operation: 'delete_flow', error: new Error('The store did not delete the flow of a failed send.') });
        }
        return outcome;
      }
      const kept = 'referenceId' in outcome ? await recorded(record.id, { referenceId: outcome.referenceId }) : true;
      return sentOf(record, first, at, 1, 'unknown' in outcome || !kept);
    },

    async resend(id, choice) {
      if (typeof id !== 'string') return { status: 'expired' };
      const at = now();
      const record = await stored(() => store.getFlow(id, at));
      if (record === FAILED) return UNAVAILABLE;
      if (!record || record.state !== 'pending' || at >= record.expiresAt) return { status: 'expired' };
      const asked = choice?.channel === undefined ? undefined : channelIndex(choice.channel, record.channel);
      const next = asked === undefined ? await nextChannel(record, at) : { index: asked, undeliverable: false };
      const claim = { id, cooldownMs: next.undeliverable ? 0 : cooldownMs, maxSends };
      let claimed: SendClaim;
      if (core) {
        const prepared = await core.prepare({ phoneNumber: `+${record.phoneNumber}`, ip: record.ip || undefined, account: record.account || undefined, resend: true });
        if ('allowed' in prepared) return refused(prepared.reason, prepared.retryAfterMs);
        const verdict = await decided({ ...prepared, plan: { ...prepared.plan, now: now() } }, { claim });
        if ('status' in verdict) return verdict;
        claimed = verdict as SendClaim;
      } else {
        const answer = await stored(() => store.claimSend(claim, now()));
        if (answer === FAILED) return UNAVAILABLE;
        claimed = answer;
        if (claimed.ok && guard) {
          const decision = await guard.check({ phoneNumber: `+${record.phoneNumber}`, ip: record.ip || undefined, account: record.account || undefined, resend: true });
          if (!decision.allowed) return refused(decision.reason, decision.retryAfterMs);
        }
      }
      if (!claimed.ok) {
        if (claimed.reason === 'cooldown') return refused('resend_cooldown', claimed.retryAfterMs);
        if (claimed.reason === 'max') return refused('resend_limit');
        return { status: 'expired' };
      }
      const channel = channels[next.index]!;
      const outcome = await send(claimed.record, channel);
      if ('status' in outcome) return outcome;
      const kept = await recorded(id, 'referenceId' in outcome ? { channel: next.index, referenceId: outcome.referenceId } : { channel: next.index });
      return sentOf(claimed.record, next.index, at, claimed.record.sends, 'unknown' in outcome || !kept);
    },

    async check(id, code) {
      if (typeof id !== 'string') return { status: 'expired' };
      const typed = typedDigits(code);
      const at = now();
      let correct = false;
      if (sdkCodes) {
        const expected = await codeOf(mac, id, codeLength);
        correct = typed !== undefined && timingSafeEqual(typed.padEnd(expected.length, ' '), expected) && typed.length === expected.length;
      } else {
        const record = await stored(() => store.getFlow(id, at));
        if (record === FAILED) return UNAVAILABLE;
        if (!record || record.state !== 'pending' || at >= record.expiresAt) return { status: 'expired' };
        if (record.attempts >= maxAttempts) return { status: 'locked' };
        if (typed && record.referenceId) {
          try {
            const verdict = await sender.check(client, record.referenceId, typed);
            if (verdict === 'expired') return { status: 'expired' };
            correct = verdict === 'valid';
          } catch (error) {
            return refused('send_failed', 0, error);
          }
        }
      }
      const outcome = await stored(() => store.attempt(id, at, correct, maxAttempts));
      if (outcome === FAILED) return UNAVAILABLE;
      if (outcome.outcome === 'invalid') return { status: 'invalid', attemptsLeft: outcome.attemptsLeft };
      if (outcome.outcome !== 'valid') return { status: outcome.outcome };
      const { record } = outcome;
      if (core) {
        const plan = await core.completion(record.phoneNumber, core.canonical(`+${record.phoneNumber}`)?.country);
        if (plan && (await stored(() => store.complete(plan))) === FAILED) core.unavailable(new Error('The store did not record the completion.'), undefined);
      } else if (guard) await guard.completed(`+${record.phoneNumber}`);
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
