// Verify API (multi-channel verification, service.md §8): POST /verification,
// GET /verification/{id}, PATCH /verification/{id}/state. JSON only, 3xxx codes in status.code,
// payload at most 10 KB, its own accounts (`products.verifyApi`), the state machine of
// verification.ts on the emulator's clock, and a signed callback at the final state.
import { describe } from '../service/codes.js';
import type { ErrorFamily } from '../service/families.js';
import { randomDigits, randomHex } from '../service/ids.js';
import { note, notePhones } from '../control/request-record.js';
import { reply } from '../service/respond.js';
import { smsFacts } from '../state/outbox.js';
import type { Scheduled } from '../state/scheduler.js';
import { timestamp } from '../service/status.js';
import type { Customer } from '../types.js';
import { EMAIL, PHONE, REFERENCE_ID, SECURITY_FACTOR, TEMPLATE_NAME, VERIFY_API_EXTERNAL_ID, VERIFY_API_MAX_METHODS as MAX_METHODS } from '../service/validate.js';
import {
  DEFAULT_FALLBACK_SECONDS,
  FALLBACK_SECONDS,
  FIRST_ONLY,
  innerMethods,
  METHODS,
  snapshot,
  timeline,
  type Method,
  type Timing,
  type Verification,
} from '../state/verification.js';
import { allow, readParams, REFERENCE_PARAM, type ProductModule, type ServiceContext } from './service.js';
import { headerOf } from '../control/headers.js';

/** Payload limit of the Verify API (3116, HTTP 413). */
export const VERIFY_API_MAX_BODY = 10 * 1024;
/** A code the emulator makes: 6 digits (the service's default length). */
const CODE_LENGTH = 6;
/** Verifications kept at most (fewer when `maxTransactions` is lower); the oldest go first. */
const MAX_KEPT = 10_000;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type Problem = { code: number; detail?: string };

function parsePolicy(value: unknown): Verification['policy'] | Problem {
  if (value === undefined) return [{ method: 'sms', fallback_time: DEFAULT_FALLBACK_SECONDS('sms') }];
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_METHODS) return { code: 3110, detail: `verification_policy must list 1 to ${MAX_METHODS} methods, e.g. [{"method":"sms"}]` };
  const policy: Verification['policy'] = [];
  for (const [i, step] of value.entries()) {
    if (!isObject(step) || !METHODS.includes(step.method as Method)) return { code: 3110, detail: `verification_policy[${i}].method must be one of ${METHODS.join(', ')}` };
    const method = step.method as Method;
    if (FIRST_ONLY.includes(method) && i > 0) return { code: 3110, detail: `verification_policy[${i}]: ${method} must come first, and silent and push do not go together` };
    const fallback = step.fallback_time ?? DEFAULT_FALLBACK_SECONDS(method);
    if (typeof fallback !== 'number' || !Number.isInteger(fallback) || fallback < FALLBACK_SECONDS.min || fallback > FALLBACK_SECONDS.max) {
      return { code: 3110, detail: `verification_policy[${i}].fallback_time must be whole seconds from ${FALLBACK_SECONDS.min} to ${FALLBACK_SECONDS.max}` };
    }
    policy.push({ method, fallback_time: fallback });
  }
  return policy;
}

function parseCreate(body: Record<string, unknown>): Omit<Verification, 'referenceId' | 'customerId' | 'createdAt' | 'attempts' | 'sent'> | Problem {
  const recipient = body.recipient;
  if (!isObject(recipient)) return { code: 3110, detail: 'recipient must be an object: {"phone_number":"15555550100"}' };
  const policy = parsePolicy(body.verification_policy);
  if (!Array.isArray(policy)) return policy;
  const methods = policy.map((s) => s.method);
  const phone = recipient.phone_number;
  const email = recipient.email;
  if (phone === undefined && methods.some((m) => m !== 'email')) return { code: 3302 };
  if (phone !== undefined && (typeof phone !== 'string' || !PHONE.test(phone))) return { code: 3101, detail: 'digits with the country code' };
  if (email === undefined && methods.includes('email')) return { code: 3309 };
  if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) return { code: 3119 };
  const factor = body.security_factor;
  if (factor !== undefined && (typeof factor !== 'string' || !SECURITY_FACTOR.test(factor))) return { code: 3110, detail: 'security_factor must be 3 to 10 digits' };
  const external = body.external_id;
  if (external !== undefined && (typeof external !== 'string' || !VERIFY_API_EXTERNAL_ID.test(external))) return { code: 3103, detail: 'at most 100 printable ASCII characters' };
  const template = body.message_template;
  if (template !== undefined && (!isObject(template) || typeof template.name !== 'string' || !TEMPLATE_NAME.test(template.name))) {
    return { code: 3110, detail: 'message_template.name must be lowercase letters and "_"' };
  }
  return {
    recipient: { ...(phone !== undefined ? { phone_number: phone as string } : {}), ...(email !== undefined ? { email: email as string } : {}) },
    policy,
    code: (factor as string | undefined) ?? randomDigits(CODE_LENGTH),
    ...(external !== undefined ? { externalId: external as string } : {}),
  };
}

/** JSON only (the API requires `Content-Type: application/json`); the object, or the family's answer. */
function readJson(c: ServiceContext, family: ErrorFamily): Record<string, unknown> | Response {
  if (!(headerOf(c, 'content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return family.error(c, 400, 3110, 'Content-Type must be application/json');
  }
  const body = readParams(c, family);
  if (body instanceof Response) return body;
  return body.object ?? {};
}

export const verifyApi: ProductModule = {
  path: '/verification',
  family: 'verifyApi',
  accounts: 'verifyApi',
  maxBodyBytes: VERIFY_API_MAX_BODY,
  routes(app, ctx, family) {
    type Entry = { v: Verification; customer: Customer; timers: Scheduled[] };
    // In creation order (a Map keeps it): past the cap the oldest goes, its fallbacks and deadline cancelled.
    const verifications = new Map<string, Entry>();
    const cap = Math.min(MAX_KEPT, ctx.settings.maxTransactions);
    ctx.onReset(() => verifications.clear());
    const timing = (): Timing => ({ deliveryDelayMs: ctx.settings.deliveryDelayMs, ...ctx.settings.verifyApi });

    /** What the service reports about a verification (GET, callbacks). */
    const report = (v: Verification, now: number) => {
      const s = snapshot(v, timing(), now);
      return {
        reference_id: v.referenceId,
        state: s.state,
        created_on: timestamp(v.createdAt),
        updated_on: timestamp(s.updatedAt),
        recipient: v.recipient,
        verification_policy: v.policy,
        inner_methods: innerMethods(s, now),
        ...(v.externalId !== undefined ? { external_id: v.externalId } : {}),
      };
    };

    /** Records in the outbox the methods started by `now` (each once). */
    const send = (v: Verification, now: number) => {
      const { started } = snapshot(v, timing(), now);
      for (const w of started.slice(v.sent)) {
        if (w.method === 'silent' || w.method === 'push') continue;
        const to = w.method === 'email' ? v.recipient.email! : v.recipient.phone_number!;
        const text = `Your verification code is ${v.code}`;
        ctx.outbox.add({ referenceId: v.referenceId, customerId: v.customerId, channel: w.method, product: 'verify_api', phoneNumber: to, text, code: v.code, ...(w.method === 'sms' ? smsFacts(text) : {}) });
      }
      v.sent = Math.max(v.sent, started.length);
    };

    /** Sends the callback of the final state (VERIFIED, REJECTED, FAILED), when a URL is known. */
    const finish = (entry: { v: Verification; customer: Customer; timers: Scheduled[] }, at: number) => {
      for (const timer of entry.timers) timer.cancel();
      entry.timers.length = 0;
      const url = entry.customer.callbackUrl;
      if (url) ctx.callbacks.send(url, report(entry.v, at), entry.customer, entry.v.referenceId, { product: 'verify_api', phoneNumber: entry.v.recipient.phone_number });
    };

    const find = (c: ServiceContext) => {
      const id = c.req.param('id') ?? '';
      if (!REFERENCE_ID.test(id)) return family.fail(c, 'invalid_reference', { detail: id });
      const entry = verifications.get(id.toUpperCase());
      if (!entry || entry.v.customerId !== c.get('customer').customerId) return family.fail(c, 'unknown_reference');
      note(c, { referenceId: entry.v.referenceId });
      notePhones(c, [entry.v.recipient.phone_number, entry.v.recipient.email]);
      return entry;
    };

    app.post('/', (c) => {
      const body = readJson(c, family);
      if (body instanceof Response) return body;
      const parsed = parseCreate(body);
      if (!('policy' in parsed)) return family.error(c, 400, parsed.code, parsed.detail);
      const customer = c.get('customer');
      const now = ctx.now();
      const v: Verification = { ...parsed, referenceId: randomHex(16), customerId: customer.customerId, createdAt: now, attempts: 0, sent: 0 };
      const entry = { v, customer, timers: [] as Scheduled[] };
      verifications.set(v.referenceId, entry);
      send(v, now);
      // The fallbacks reach the outbox at their time, and the failure is reported when it comes.
      const { windows, failAt } = timeline(v, timing());
      // Background tasks: `idle()` runs them once the clock has passed them, never waits for them.
      for (const w of windows.slice(1)) if (w.start < failAt) entry.timers.push(ctx.schedule(w.start, () => send(v, Math.max(ctx.now(), w.start)), { background: true }));
      entry.timers.push(ctx.schedule(failAt, () => v.finalized === undefined && finish(entry, failAt), { background: true }));
      if (verifications.size > cap) {
        const [oldest] = verifications.values();
        verifications.delete(oldest!.v.referenceId);
        for (const timer of oldest!.timers) timer.cancel();
      }
      return reply(c, 200, { ...report(v, now), status: ctx.status(3001, now) });
    });

    app.get(`/${REFERENCE_PARAM}`, (c) => {
      const entry = find(c);
      if (entry instanceof Response) return entry;
      const now = ctx.now();
      send(entry.v, now);
      return reply(c, 200, report(entry.v, now));
    });

    // Finalize: the user's code. Every outcome is HTTP 200 with its code in status.
    app.patch(`/${REFERENCE_PARAM}/state`, (c) => {
      const entry = find(c);
      if (entry instanceof Response) return entry;
      const body = readJson(c, family);
      if (body instanceof Response) return body;
      if (body.action !== 'finalize') return family.error(c, 400, 3110, 'action must be "finalize"');
      const factor = body.security_factor;
      if (typeof factor !== 'string' || !SECURITY_FACTOR.test(factor)) return family.error(c, 400, 3110, 'security_factor must be the code the user entered: 3 to 10 digits');
      const v = entry.v;
      const now = ctx.now();
      send(v, now);
      const s = snapshot(v, timing(), now);
      const answer = (code: number) => reply(c, 200, { reference_id: v.referenceId, state: snapshot(v, timing(), now).state, status: { code, description: describe(code) } });
      if (v.finalized) return answer(3931);
      if (s.state === 'FAILED') {
        const last = timeline(v, timing()).windows.at(-1)!;
        return answer(!last.delivered && s.failAt === last.known ? 3904 : 3935);
      }
      if (s.current && now > s.current.start + ctx.settings.verifyApi.codeValidityMs) return answer(3935);
      v.attempts++;
      if (factor === v.code) {
        v.finalized = { state: 'VERIFIED', at: now };
        finish(entry, now);
        return answer(3900);
      }
      if (v.attempts >= ctx.settings.verifyApi.maxAttempts) {
        v.finalized = { state: 'REJECTED', at: now };
        finish(entry, now);
        return answer(3904);
      }
      return answer(3909);
    });

    allow(app, family, '/', 'POST');
    allow(app, family, `/${REFERENCE_PARAM}`, 'GET');
    allow(app, family, `/${REFERENCE_PARAM}/state`, 'PATCH');
  },
};
