import { callbackHeaders, type Credentials } from '@x/auth';
import { sha256Hex } from '@x/auth/protocol';
import { EmulatorError } from '../errors.js';
import type { CallbackAbout, CallbackChaos, CallbackFaultRule } from './faults.js';
import { LATE_DEFAULT_MS } from './faults.js';
import { maskCredentials, splitCredentials } from '../service/url.js';
import type { Scheduled, Scheduler } from './scheduler.js';

/** How the emulator delivers callbacks (`createEmulator({ callbacks })`). */
export interface CallbackDeliveryOptions {
  /** Waits before the 2nd, 3rd, ... attempt, on the emulator's clock (`clock.advance` brings them forward). Default [10 000, 30 000]: three attempts, as the service does. */
  retryDelaysMs?: number[] | undefined;
  /** Per attempt. Default 5 000 ms. */
  timeoutMs?: number | undefined;
  /** The fetch used to deliver callbacks. Default `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
}

export interface CallbackAttempt {
  /** Numbers the attempts of one emulator from 1, in the order they started (never reused). */
  id: number;
  referenceId: string;
  url: string;
  /** 1-based: the 2nd and 3rd are the retries. A re-send (`resend`) counts on from the attempt it repeats. */
  attempt: number;
  /** When it started, on the emulator's clock. */
  at: number;
  ok: boolean;
  /** The HTTP status the receiver answered, if it answered. */
  status?: number;
  error?: string;
  /** Why it failed below HTTP, when the runtime says: the system's code (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, ...). */
  cause?: string;
  /** The address it tried to reach (`127.0.0.1:3000`), when the runtime says. */
  address?: string;
  /** When the next attempt is due, on the emulator's clock; absent when none follows. */
  nextAttemptAt?: number;
  /** How long the receiver took, real milliseconds. */
  ms?: number;
  /** Set on a re-send: the id of the attempt whose body and headers it sent again. */
  resentFrom?: number;
  /** Set when a callback fault shaped it: what was done (`duplicate`, `reorder`, `late`, `drop`) and a line about it. */
  chaos?: { kind: CallbackChaos; detail: string };
  /** Restored from a saved state (`--state`, `PUT /_emulator/snapshot`): its signature was not kept, so it cannot be re-sent. */
  restored?: true;
  /** The exact signed bytes, as text. */
  body: string;
  /** As sent, with the signature (`authorization`, `x-ts-authorization`). */
  headers: Record<string, string>;
}

/**
 * A callback attempt as the control routes and events show it: the signature cut to its first six
 * characters (`TSA <customer id>:abc123…`), the payload parsed, and the SHA-256 of the exact
 * bytes; `GET /_emulator/callbacks/{id}/raw` (or `emulator.callbacks.attempts`) has what was sent.
 */
export interface CallbackView extends Omit<CallbackAttempt, 'body'> {
  payload: unknown;
  bodySha256: string;
  /** The raw route gives the exact body and headers, so the signature can be checked. */
  verifiable: true;
}

const MAX_RECORDS = 10_000;
const SIGNATURE_SHOWN = 6;

/** Cuts signatures to their first characters; other headers as they are. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') {
      const match = /^(\S+)\s+([^:]*):(.*)$/.exec(value);
      out[name] = match ? `${match[1]} ${match[2]}:${match[3]!.slice(0, SIGNATURE_SHOWN)}…` : '…';
    } else if (lower === 'x-ts-authorization') out[name] = `${value.slice(0, SIGNATURE_SHOWN)}…`;
    else out[name] = value;
  }
  return out;
}

export function viewOf(record: CallbackAttempt): CallbackView {
  let payload: unknown;
  try {
    payload = JSON.parse(record.body);
  } catch {
    payload = record.body;
  }
  const { body, ...rest } = record;
  return { ...rest, payload, headers: redactHeaders(record.headers), bodySha256: sha256Hex(body), verifiable: true };
}

/**
 * The system error under a failed fetch (undici: `error.cause`, an AggregateError's first error
 * for a name with several addresses): its code and the address it tried.
 */
export function systemCause(error: unknown): { code?: string; address?: string } {
  let at: unknown = error;
  for (let depth = 0; depth < 4 && typeof at === 'object' && at !== null; depth++) {
    const e = at as { code?: unknown; address?: unknown; port?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string' && depth > 0) {
      const out: { code?: string; address?: string } = { code: e.code };
      if (typeof e.address === 'string') out.address = typeof e.port === 'number' ? (e.address.includes(':') ? `[${e.address}]:${e.port}` : `${e.address}:${e.port}`) : e.address;
      return out;
    }
    at = e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined);
  }
  if (error instanceof Error && error.name === 'TimeoutError') return { code: 'ETIMEDOUT' };
  return {};
}

/** Where a callback goes: the URL and headers sent, and the URL and headers as the records show them (credentials masked). */
interface Target {
  url: string;
  headers: Record<string, string>;
  shown: string;
  recorded: Record<string, string>;
}

/**
 * A callback URL with a user name and password is sent to the URL without them, with HTTP Basic
 * from them in `Authorization`: the signature then travels in `X-TS-Authorization` alone (the one
 * Authorization header holds one credential). The records show the URL as `user:***@` and the
 * Basic value as `Basic ***`.
 */
function targetOf(url: string, headers: Record<string, string>): Target {
  const split = splitCredentials(url);
  if (split.authorization === undefined) return { url, headers, shown: url, recorded: headers };
  const sent = { ...headers, authorization: split.authorization };
  return { url: split.url, headers: sent, shown: maskCredentials(url), recorded: { ...headers, authorization: 'Basic ***' } };
}

/** A wait for a time of the clock (a retry, a late copy) on the emulator's scheduler. */
interface Sleeper {
  at: number;
  run: () => void;
  cancelled: () => void;
  task?: Scheduled;
}

/**
 * Delivers signed callbacks with retries, and records every attempt. Waits between attempts are
 * background tasks of the emulator's scheduler (`idle()` waits for them through `idle()` here).
 */
export class CallbackSender {
  readonly attempts: CallbackAttempt[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly sleepers = new Set<Sleeper>();
  /** Where each attempt went and with which headers (Basic credentials in clear): for a re-send, never shown. */
  private readonly targets = new WeakMap<CallbackAttempt, Target>();
  private readonly now: () => number;
  private closed = false;
  private nextId = 0;

  constructor(
    private readonly options: CallbackDeliveryOptions,
    private readonly scheduler: Scheduler,
    /** Told about every finished attempt. */
    private readonly onAttempt: (record: CallbackAttempt) => void = () => undefined,
    /** The callback fault rules that apply to a callback, in order (the emulator's fault rules; each use counted). */
    private readonly chaosOf: (about: CallbackAbout) => readonly CallbackFaultRule[] = () => [],
  ) {
    this.now = scheduler.now;
  }

  /**
   * Sends a signed callback, with retries. `about` (its product, number and earlier status) lets
   * callback fault rules shape it. Every rule that matches applies: `drop` rules lose that many
   * first attempts (the retries follow), `duplicate` rules add their copies (sent one after the
   * other, the first with the drops), and a `reorder` or `late` rule sends the earlier status after
   * the last copy (right after, or `delayMs` after the final one).
   */
  send(url: string, payload: unknown, credentials: Credentials, referenceId: string, about?: CallbackAbout): void {
    const rules = about ? this.chaosOf(about) : [];
    if (rules.length === 0) return void this.deliver(url, payload, credentials, referenceId);
    // One task for the whole sequence, so that `idle()` never sees a gap between its parts.
    const task = this.sequence(rules, url, payload, credentials, referenceId, about!).finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  private async sequence(rules: readonly CallbackFaultRule[], url: string, payload: unknown, credentials: Credentials, referenceId: string, about: CallbackAbout): Promise<void> {
    const code = (body: unknown) => (body as { status?: { code?: unknown } } | undefined)?.status?.code;
    let drops = 0;
    let copies = 1;
    let after: CallbackFaultRule | undefined;
    for (const rule of rules) {
      if (rule.chaos === 'drop') drops++;
      else if (rule.chaos === 'duplicate') copies += rule.copies ?? 1;
      else after ??= rule; // Faults refuses two that can meet; a hand-made list keeps the first
    }
    const earlier = after && about.earlier!();
    const delayMs = after?.chaos === 'late' ? (after.delayMs ?? LATE_DEFAULT_MS) : undefined;
    // The late one's wait starts with the final callback (synchronously, so that a clock moved right after brings it forward).
    const due = delayMs !== undefined ? new Promise<boolean>((resolve) => this.later(this.now() + delayMs, () => resolve(true), () => resolve(false))) : true;
    for (let copy = 1; copy <= copies && !this.closed; copy++) {
      const mark = copies > 1 ? { kind: 'duplicate' as const, detail: `copy ${copy} of ${copies}` } : undefined;
      await this.deliver(url, payload, credentials, referenceId, mark, copy === 1 ? drops : 0);
    }
    if (!after || !(await due) || this.closed) return;
    const detail = delayMs !== undefined ? `earlier status ${String(code(earlier))} sent ${delayMs} ms after the final ${String(code(payload))}` : `earlier status ${String(code(earlier))} sent after the final ${String(code(payload))}`;
    await this.deliver(url, earlier, credentials, referenceId, { kind: after.chaos, detail });
  }

  /**
   * One callback with its retries; resolves when it was delivered or used up its attempts. Its
   * first `drops` attempts are lost by a callback fault (never sent); `mark` says what the others are.
   */
  private deliver(url: string, payload: unknown, credentials: Credentials, referenceId: string, mark?: CallbackAttempt['chaos'], drops = 0): Promise<void> {
    const body = JSON.stringify(payload);
    const target = targetOf(url, { 'content-type': 'application/json', ...callbackHeaders(body, credentials) });
    const delays = this.options.retryDelaysMs ?? [10_000, 30_000];
    let finished: () => void = () => undefined;
    const task = new Promise<void>((resolve) => (finished = resolve)).finally(() => this.pending.delete(task));
    this.pending.add(task);
    // Each attempt starts synchronously (from here, or from the wake-up of its wait), so that
    // `settled()` sees it under way as soon as the clock has moved.
    const attempt = (n: number) => {
      if (this.closed) return finished();
      const dropped = n <= drops;
      const chaos = dropped ? { kind: 'drop' as const, detail: `${n === 1 ? 'first attempt' : `attempt ${n}`} dropped by a callback fault: never sent; the retries follow${mark ? `; ${mark.detail}` : ''}` } : mark;
      void this.track(this.attempt(target, body, referenceId, n, undefined, delays[n - 1], chaos, dropped)).then((record) => {
        if (record.ok || record.nextAttemptAt === undefined || this.closed) finished();
        else this.later(record.nextAttemptAt, () => attempt(n + 1), finished);
      });
    };
    attempt(1);
    return task;
  }

  /** Sends an attempt's exact body and headers again to its URL, as one new attempt (no retries). */
  async resend(id: number): Promise<CallbackAttempt> {
    const original = this.find(id);
    if (!original) throw new EmulatorError('unknown_callback', `No callback attempt has id ${String(id)}: GET /_emulator/callbacks (or emulator.callbacks.attempts) lists them; a reset forgets them.`);
    if (original.restored) throw new EmulatorError('unknown_callback', `Callback attempt ${String(id)} was restored from a saved state, which keeps no signatures: it cannot be re-sent. Re-send an attempt made since the restart.`);
    const target = this.targets.get(original) ?? targetOf(original.url, original.headers);
    const again = this.track(this.attempt(target, original.body, original.referenceId, original.attempt + 1, original.id));
    const task = again.then(() => undefined).finally(() => this.pending.delete(task));
    this.pending.add(task);
    return again;
  }

  find(id: number): CallbackAttempt | undefined {
    for (let i = this.attempts.length - 1; i >= 0; i--) if (this.attempts[i]!.id === id) return this.attempts[i];
    return undefined;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    const held = promise.finally(() => this.inFlight.delete(held));
    this.inFlight.add(held);
    return promise;
  }

  private async attempt(target: Target, body: string, referenceId: string, attempt: number, resentFrom?: number, retryInMs?: number, chaos?: CallbackAttempt['chaos'], dropped = false): Promise<CallbackAttempt> {
    const record: CallbackAttempt = { id: ++this.nextId, referenceId, url: target.shown, attempt, at: this.now(), ok: false, body, headers: target.recorded };
    this.targets.set(record, target);
    if (resentFrom !== undefined) record.resentFrom = resentFrom;
    if (chaos !== undefined) record.chaos = chaos;
    const fetcher = this.options.fetch ?? globalThis.fetch;
    const started = performance.now();
    if (dropped) record.error = 'dropped by a callback fault: never sent';
    else try {
      const response = await fetcher(target.url, { method: 'POST', headers: target.headers, body, signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000) });
      await response.arrayBuffer().catch(() => undefined);
      record.status = response.status;
      record.ok = response.status >= 200 && response.status < 300;
    } catch (error) {
      // The runtime's message may name the URL: its password never goes into the record.
      record.error = maskCredentials(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      const below = systemCause(error);
      if (below.code !== undefined) record.cause = below.code;
      if (below.address !== undefined) record.address = below.address;
    }
    if (!record.ok && retryInMs !== undefined && !this.closed) record.nextAttemptAt = this.now() + retryInMs;
    record.ms = Math.round((performance.now() - started) * 10) / 10;
    this.attempts.push(record);
    if (this.attempts.length > MAX_RECORDS) this.attempts.shift();
    this.onAttempt(record);
    return record;
  }

  /** Runs `run` at `at` on the emulator's clock; `cancelled` if the sender closes first. */
  private later(at: number, run: () => void, cancelled: () => void): void {
    const sleeper: Sleeper = { at, run, cancelled };
    this.sleepers.add(sleeper);
    this.wait(sleeper);
  }

  private wait(sleeper: Sleeper): void {
    sleeper.task = this.scheduler.at(sleeper.at, () => this.sleepers.delete(sleeper) && sleeper.run(), { background: true });
  }

  /** After a reset, which forgot the scheduler's tasks: the waits go on, each for its time on the clock. */
  reschedule(): void {
    for (const sleeper of this.sleepers) this.wait(sleeper);
  }

  /** What `idle()` waits for: attempts under way, and waits for a time of the clock (retries, a late copy) with the earliest. */
  waiting(): { inFlight: number; sleeping: number; at?: number } {
    let at: number | undefined;
    for (const sleeper of this.sleepers) if (at === undefined || sleeper.at < at) at = sleeper.at;
    return { inFlight: this.inFlight.size, sleeping: this.sleepers.size, ...(at !== undefined ? { at } : {}) };
  }

  /** Resolves when the attempts under way have answered (not the retries waiting for their time). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  /** Resolves when every callback in flight has been delivered or has used up its attempts. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Puts back the attempts of a saved state (history only: they are not sent again); numbering goes on after them. */
  restore(records: CallbackAttempt[]): void {
    for (const record of records) {
      this.attempts.push(record);
      this.nextId = Math.max(this.nextId, record.id);
    }
    if (this.attempts.length > MAX_RECORDS) this.attempts.splice(0, this.attempts.length - MAX_RECORDS);
  }

  /** Forgets the records (numbering goes on). */
  clear(): void {
    this.attempts.length = 0;
  }

  close(): void {
    this.closed = true;
    for (const sleeper of this.sleepers) {
      sleeper.task?.cancel();
      sleeper.cancelled();
    }
    this.sleepers.clear();
  }
}
