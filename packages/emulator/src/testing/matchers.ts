// The matchers of @x/emulator/vitest and @x/emulator/jest, written once in the protocol both
// runners' expect.extend share: (this: context, received, ...expected) => { pass, message }.
// They read the emulator's records (outbox, callback attempts, transactions) as they are when
// called; a failure lists what was there instead, verification codes masked.
import { phoneMatcher } from '../service/phone.js';
import type { Emulator } from '../emulator.js';
import type { OutboxChannel, OutboxMessage } from '../state/outbox.js';
import type { TransactionView } from '../state/transactions.js';

/** What a text is expected to be: the exact text, a RegExp it matches, or an asymmetric matcher (`expect.stringContaining('code')`). */
export type TextExpectation = string | RegExp | { asymmetricMatch(actual: unknown): boolean };

/** `toHaveSentSms` / `toHavePlacedCall`: every field given must match one message. */
export interface MessageExpectation {
  /** The number, in any format the client accepts (`+1 555 555 1234`). */
  to?: string;
  text?: TextExpectation;
}

/** What a callback is about: the kind of its transaction (`sms`, `verify`, `voice`, as `emulator.transactions`), or `inbound` for an inbound SMS. */
export type DeliveredCallbackKind = TransactionView['kind'] | 'inbound';

/** `toHaveDeliveredCallback`: every field given must match one attempt the receiver answered with 2xx. */
export interface CallbackExpectation {
  kind?: DeliveredCallbackKind;
  /** The status code the callback carries (`status.code`: 200 delivered, 207 undeliverable, ...). */
  status?: number;
  referenceId?: string;
}

/** The part of a runner's matcher context the matchers use (Vitest's and Jest's both have it). */
export interface MatcherContext {
  isNot?: boolean;
  equals?(a: unknown, b: unknown): boolean;
}

export interface MatcherResult {
  pass: boolean;
  message(): string;
}

/**
 * The matchers as an object for `expect.extend(emulatorMatchers)` (Vitest and Jest); the entries
 * `@x/emulator/vitest` and `@x/emulator/jest` type them on `expect`.
 */
export interface EmulatorMatchers<R = unknown> {
  /** The emulator sent an SMS (Messaging, SMS Verify, Bulk SMS) that matches: `expect(emulator).toHaveSentSms({ to: '+1 555 555 1234', text: /code/ })`. */
  toHaveSentSms(expected?: MessageExpectation): R;
  /** The emulator placed a call (Voice, Voice Verify) that matches: `expect(emulator).toHavePlacedCall({ to: '15555551234' })`. */
  toHavePlacedCall(expected?: MessageExpectation): R;
  /** A callback that matches reached its receiver (answered 2xx): `expect(emulator).toHaveDeliveredCallback({ kind: 'sms', status: 200 })`. `await emulator.idle()` first. */
  toHaveDeliveredCallback(expected?: CallbackExpectation): R;
}

const MAX_LISTED = 10;

function isEmulator(value: unknown): value is Emulator {
  return typeof value === 'object' && value !== null && 'outbox' in value && 'callbacks' in value && 'transactions' in value;
}

function notAnEmulator(name: string, received: unknown): MatcherResult {
  const what = received === null ? 'null' : typeof received;
  return { pass: false, message: () => `${name}: expect(...) must be given the emulator (createEmulator() or useEmulator()), not ${what}.` };
}

function textMatches(ctx: MatcherContext, actual: string, expected: TextExpectation): boolean {
  if (expected instanceof RegExp) return new RegExp(expected.source, expected.flags.replace('g', '')).test(actual);
  if (typeof expected === 'string') return actual === expected;
  return ctx.equals ? ctx.equals(actual, expected) : expected.asymmetricMatch(actual);
}

const describeText = (text: TextExpectation): string => (typeof text === 'string' ? JSON.stringify(text) : text instanceof RegExp ? String(text) : String(text));

/** The text as a failure message shows it: a verification code replaced by as many `•`. */
function shown(message: OutboxMessage): string {
  const text = message.code ? message.text.split(message.code).join('•'.repeat(message.code.length)) : message.text;
  return JSON.stringify(text);
}

function describeWanted(noun: string, expected: Record<string, unknown>): string {
  const parts = Object.entries(expected)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key} ${key === 'text' ? describeText(value as TextExpectation) : JSON.stringify(value)}`);
  return parts.length ? `${noun} with ${parts.join(', ')}` : noun;
}

function listed<T>(items: readonly T[], line: (item: T) => string, none: string): string {
  if (items.length === 0) return none;
  const last = items.slice(-MAX_LISTED);
  const more = items.length > last.length ? `\n  ... and ${items.length - last.length} earlier` : '';
  return `${last.map((item) => `  - ${line(item)}`).join('\n')}${more}`;
}

function messageMatcher(name: string, channel: OutboxChannel, noun: string, verb: string) {
  return function (this: MatcherContext, received: unknown, expected: MessageExpectation = {}): MatcherResult {
    if (!isEmulator(received)) return notAnEmulator(name, received);
    const sent = received.outbox.list({ channel });
    const to = expected.to === undefined ? undefined : phoneMatcher(expected.to);
    const match = sent.find((m) => (!to || to(m.phoneNumber)) && (expected.text === undefined || textMatches(this, m.text, expected.text)));
    const wanted = describeWanted(noun, { to: expected.to, text: expected.text });
    const others = listed(sent, (m) => `to ${m.phoneNumber}: ${shown(m)}`, '  (nothing)');
    return {
      pass: match !== undefined,
      message: () =>
        match
          ? `expected the emulator not to have ${verb} ${wanted}, but it did:\n  - to ${match.phoneNumber}: ${shown(match)}`
          : `expected the emulator to have ${verb} ${wanted}; it ${verb}:\n${others}`,
    };
  };
}

interface Delivered {
  referenceId: string;
  url: string;
  kind: DeliveredCallbackKind | undefined;
  status: number | undefined;
}

function deliveredCallbacks(emulator: Emulator): { delivered: Delivered[]; failed: number } {
  const delivered: Delivered[] = [];
  let failed = 0;
  for (const attempt of emulator.callbacks.attempts) {
    if (!attempt.ok) {
      failed++;
      continue;
    }
    let payload: { status?: { code?: unknown }; sub_resource?: unknown } = {};
    try {
      payload = JSON.parse(attempt.body) as typeof payload;
    } catch {
      // a body that is not JSON: no status to compare
    }
    const code = payload?.status?.code;
    const kind = emulator.transactions.get(attempt.referenceId)?.kind ?? (payload?.sub_resource === 'mo_sms' ? 'inbound' : undefined);
    delivered.push({ referenceId: attempt.referenceId, url: attempt.url, kind, status: typeof code === 'number' ? code : undefined });
  }
  return { delivered, failed };
}

function toHaveDeliveredCallback(this: MatcherContext, received: unknown, expected: CallbackExpectation = {}): MatcherResult {
  if (!isEmulator(received)) return notAnEmulator('toHaveDeliveredCallback', received);
  const { delivered, failed } = deliveredCallbacks(received);
  const match = delivered.find(
    (d) =>
      (expected.kind === undefined || d.kind === expected.kind) &&
      (expected.status === undefined || d.status === expected.status) &&
      (expected.referenceId === undefined || d.referenceId === expected.referenceId),
  );
  const line = (d: Delivered) => `${d.kind ?? 'callback'} ${d.referenceId} status ${d.status ?? '(none)'} to ${d.url}`;
  const wanted = describeWanted('a callback', { kind: expected.kind, status: expected.status, referenceId: expected.referenceId });
  const notAnswered = failed ? `\n  (${failed} attempt${failed === 1 ? '' : 's'} not answered with 2xx; emulator.callbacks.list() has them)` : '';
  return {
    pass: match !== undefined,
    message: () =>
      match
        ? `expected the emulator not to have delivered ${wanted}, but it did:\n  - ${line(match)}`
        : `expected the emulator to have delivered ${wanted}; it delivered:\n${listed(delivered, line, '  (no callback answered with 2xx)')}${notAnswered}\n  Callbacks are sent in the background: await emulator.idle() before asserting.`,
  };
}

/** The matchers, for `expect.extend(emulatorMatchers)`. */
export const emulatorMatchers = {
  toHaveSentSms: messageMatcher('toHaveSentSms', 'sms', 'an SMS', 'sent'),
  toHavePlacedCall: messageMatcher('toHavePlacedCall', 'voice', 'a call', 'placed'),
  toHaveDeliveredCallback,
};
