// The flow against the in-process emulator: codes really sent by verify.sms / verify.call and read
// from the emulator's outbox; the emulator's test numbers give undeliverable SMS (...0001) and
// risky numbers (...0003 VOIP, Score block).
import { XError } from '@x/auth';
import { ApiError, createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { describe, expect, it } from 'vitest';
import { createOtp, otpTemplate, type GuardEvent, type OtpEvent } from '../src/index.js';
import { clock, emulated, wrong } from './support.js';

const PHONE = '15555550100';
const UNDELIVERABLE = '15555550001';
const VOIP = '15555550003';

function setup(options: Partial<Parameters<typeof createOtp>[0]> = {}) {
  const parts = emulated();
  const time = clock();
  const events: OtpEvent[] = [];
  const otp = createOtp({ client: parts.client, now: time.now, onEvent: (e) => events.push(e), ...options });
  return { ...parts, time, otp, events };
}

describe('createOtp against the emulator', () => {
  it('sends a code by SMS and answers valid for it, once', async () => {
    const { otp, codeOf, sent, emulator } = setup({ template: otpTemplate({ brand: 'Acme', webOtpDomain: 'acme.example' }) });
    const started = await otp.start({ phoneNumber: '+1 555 555 0100' });
    expect(started).toMatchObject({ status: 'sent', channel: 'sms', expiresInMs: 600_000, resendInMs: 30_000 });
    if (started.status !== 'sent') return;
    const code = codeOf(PHONE)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(sent(PHONE)[0]!.text).toBe(`Your Acme code is ${code}. Do not share it.\n\n@acme.example #${code}`);
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await otp.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: PHONE });
    // The service was told (verify.complete): its code state is VALID.
    const completion = emulator.journal.list().filter((e) => e.method === 'PUT');
    expect(completion).toHaveLength(1);
    expect(await otp.check(started.id, code)).toEqual({ status: 'expired' });
  });

  it('locks after maxAttempts wrong codes, even for the right one then', async () => {
    const { otp, codeOf } = setup({ maxAttempts: 3 });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = codeOf(PHONE)!;
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 2 });
    expect(await otp.check(started.id, 'abc')).toEqual({ status: 'invalid', attemptsLeft: 1 });
    // The last allowed wrong code locks the flow: it says so at once.
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'locked' });
    expect(await otp.check(started.id, code)).toEqual({ status: 'locked' });
  });

  it('answers expired after the code lifetime, and for an unknown id', async () => {
    const { otp, codeOf, time } = setup({ codeTtlMs: 60_000 });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    time.advance(60_000);
    expect(await otp.check(started.id, codeOf(PHONE)!)).toEqual({ status: 'expired' });
    expect(await otp.check('no-such-flow', '123456')).toEqual({ status: 'expired' });
    expect(await otp.resend(started.id)).toEqual({ status: 'expired' });
  });

  it('resends after the cooldown only, at most maxResends times, with the same code each time', async () => {
    const { otp, codeOf, time, sent } = setup({ resendCooldownMs: 30_000, maxResends: 2, channels: ['sms'] });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const first = codeOf(PHONE)!;
    expect(await otp.resend(started.id)).toEqual({ status: 'refused', reason: 'resend_cooldown', retryAfterMs: 30_000 });
    time.advance(30_000);
    expect(await otp.resend(started.id)).toMatchObject({ status: 'sent', channel: 'sms' });
    time.advance(30_000);
    expect(await otp.resend(started.id)).toMatchObject({ status: 'sent', resendInMs: 0 });
    time.advance(30_000);
    // Waiting does not help: retryAfterMs is 0.
    expect(await otp.resend(started.id)).toEqual({ status: 'refused', reason: 'resend_limit', retryAfterMs: 0 });
    expect(sent(PHONE)).toHaveLength(3);
    expect(sent(PHONE).map((m) => m.code)).toEqual([first, first, first]);
    // The first SMS, arriving late, still carries the code that works.
    expect(await otp.check(started.id, first)).toMatchObject({ status: 'valid' });
  });

  it('falls back to a call at once when the SMS was undeliverable (207)', async () => {
    const { otp, codeOf, emulator, events, sent } = setup();
    const started = await otp.start({ phoneNumber: UNDELIVERABLE });
    if (started.status !== 'sent') throw new Error('not sent');
    await emulator.clock.advance(1500); // the SMS reaches its final status, 207
    const again = await otp.resend(started.id); // no cooldown for an undeliverable SMS
    expect(again).toMatchObject({ status: 'sent', channel: 'call' });
    expect(events).toEqual([{ type: 'fallback', id: started.id, from: 'sms', to: 'call', why: 'undeliverable' }]);
    expect(sent(UNDELIVERABLE).map((m) => m.channel)).toEqual(['sms', 'voice']);
    expect(await otp.check(started.id, codeOf(UNDELIVERABLE)!)).toMatchObject({ status: 'valid' });
  });

  it('falls back to a call when the SMS is not confirmed after fallbackAfterMs, and stays on SMS before', async () => {
    const { otp, time, events } = setup({ fallbackAfterMs: 45_000 });
    const started = await otp.start({ phoneNumber: PHONE }); // delivery not settled: 290 in progress
    if (started.status !== 'sent') throw new Error('not sent');
    time.advance(30_000);
    expect(await otp.resend(started.id)).toMatchObject({ status: 'sent', channel: 'sms' });
    time.advance(45_000);
    expect(await otp.resend(started.id)).toMatchObject({ status: 'sent', channel: 'call' });
    expect(events).toEqual([{ type: 'fallback', id: started.id, from: 'sms', to: 'call', why: 'unconfirmed' }]);
  });

  it("takes the user's channel on request, and refuses one the flow does not have", async () => {
    const { otp, time, sent } = setup();
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    time.advance(30_000);
    expect(await otp.resend(started.id, { channel: 'call' })).toMatchObject({ status: 'sent', channel: 'call' });
    expect(sent(PHONE).map((m) => m.channel)).toEqual(['sms', 'voice']);
    const smsOnly = setup({ channels: ['sms'] });
    await expect(smsOnly.otp.start({ phoneNumber: PHONE, channel: 'call' })).rejects.toThrow(XError);
  });

  it('cancel closes the flow', async () => {
    const { otp, codeOf } = setup();
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    expect(await otp.cancel(started.id)).toEqual({ status: 'cancelled' });
    expect(await otp.check(started.id, codeOf(PHONE)!)).toEqual({ status: 'expired' });
  });

  it('service codes: the service makes the code and verify.check decides', async () => {
    const { otp, codeOf, emulator } = setup({ codes: 'service' });
    const started = await otp.start({ phoneNumber: PHONE, locale: 'en-US' });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = codeOf(PHONE)!;
    expect(code).toMatch(/^\d{7}$/);
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await otp.check(started.id, code)).toMatchObject({ status: 'valid' });
    expect(emulator.journal.list().filter((e) => e.query?.startsWith('verify_code='))).toHaveLength(2);
  });

  it('the risk gate refuses a number Score recommends blocking, before any send', async () => {
    const { otp, sent } = setup({ risk: { source: 'score' } });
    expect(await otp.start({ phoneNumber: VOIP })).toEqual({ status: 'refused', reason: 'risk', retryAfterMs: 0 });
    expect(sent(VOIP)).toHaveLength(0);
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
  });

  it('the risk gate on the Intelligence answer: its recommendation refuses before any send', async () => {
    const { otp, sent, emulator } = setup({ risk: { source: 'intelligence' } });
    expect(await otp.start({ phoneNumber: VOIP })).toEqual({ status: 'refused', reason: 'risk', retryAfterMs: 0 });
    expect(sent(VOIP)).toHaveLength(0);
    expect(emulator.journal.list().map((e) => `${e.method} ${e.path}`)).toEqual(['POST /intelligence/phone']);
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
  });

  it('the guard refuses before any send: the number limit, with the time to wait', async () => {
    const time = clock();
    const { otp, sent } = setup({ now: time.now, guard: { now: time.now, limits: { phone: { max: 2, windowMs: 60_000 } } } });
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
    time.advance(10_000);
    expect(await otp.start({ phoneNumber: PHONE })).toMatchObject({ status: 'sent' });
    expect(await otp.start({ phoneNumber: PHONE })).toEqual({ status: 'refused', reason: 'phone_limit', retryAfterMs: 50_000 });
    expect(sent(PHONE)).toHaveLength(2);
    expect(await otp.start({ phoneNumber: '12' })).toEqual({ status: 'refused', reason: 'invalid_number', retryAfterMs: 0 });
  });

  it('a pumping burst against the emulator: a range nobody completes is refused before any send; a range whose users complete is not', async () => {
    const guardEvents: GuardEvent[] = [];
    const time = clock(); // one clock for the flow and its guard, as in production (both default to Date.now)
    const { otp, emulator, codeOf, events } = setup({ now: time.now, guard: { now: time.now, onEvent: (e) => guardEvents.push(e) } });
    const range = (prefix: string, i: number) => `${prefix}${String(i).padStart(3, '0')}`;
    // Honest users of one range: each types the code it received.
    for (let i = 0; i < 40; i++) {
      const started = await otp.start({ phoneNumber: range('15555557', i) });
      if (started.status !== 'sent') throw new Error(`honest start ${i} refused: ${JSON.stringify(started)}`);
      expect(await otp.check(started.id, codeOf(range('15555557', i))!)).toMatchObject({ status: 'valid' });
    }
    // A bot: 40 numbers of another range, codes never typed. The defaults trip at 30 starts, 80 % never completed.
    const burst = [];
    for (let i = 0; i < 40; i++) burst.push(await otp.start({ phoneNumber: range('15555558', i) }));
    expect(burst.slice(0, 29).every((r) => r.status === 'sent')).toBe(true);
    expect(burst.slice(29)).toEqual(Array.from({ length: 11 }, () => ({ status: 'refused', reason: 'pumping', retryAfterMs: 3_600_000 })));
    expect(emulator.outbox.list().filter((m) => m.phoneNumber.startsWith('15555558'))).toHaveLength(29);
    expect(guardEvents.filter((e) => e.type === 'pumping')).toEqual([{ type: 'pumping', scope: 'prefix', value: '15555558', started: 29, completed: 0, coolMs: 3_600_000 }]);
    // The flow's own onEvent hears it too (the README's setup logs only that one).
    expect(events.filter((e) => e.type === 'pumping')).toEqual(guardEvents.filter((e) => e.type === 'pumping'));
    // The country stays open: an unrelated number of the same country is sent a code.
    expect(await otp.start({ phoneNumber: '+1 555 555 0177' })).toMatchObject({ status: 'sent' });
  });

  it('a send whose outcome the service leaves unknown (a 503) answers sent, unconfirmed, with an event: the user types the code or asks for a resend', async () => {
    const { otp, emulator, events } = setup();
    emulator.faults.add({ type: 'status', status: 503, times: 1 });
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'sent', unconfirmed: true });
    expect(events).toMatchObject([{ type: 'send_unknown', channel: 'sms' }]);
    expect((events[0] as { error: unknown }).error).toBeInstanceOf(ApiError);
  });

  it('a send the service refuses (a wrong API key) is send_failed with its HTTP status and an event; the flow is gone', async () => {
    const { emulator } = emulated();
    const events: OtpEvent[] = [];
    const client = createClient({ customerId: DEFAULT_CUSTOMER.customerId, apiKey: btoa('not the key of this customer!!'), baseUrl: 'http://emulator.local', fetch: emulator.fetch, retry: false });
    const otp = createOtp({ client, onEvent: (e) => events.push(e) });
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'refused', reason: 'send_failed', retryAfterMs: 0, httpStatus: 401 });
    expect(events).toMatchObject([{ type: 'send_failed', channel: 'sms', httpStatus: 401 }]);
    expect(emulator.outbox.list()).toHaveLength(0);
  });

  it('codes never appear in what the flow answers or emits', async () => {
    const { otp, codeOf, events, emulator, time } = setup();
    const started = await otp.start({ phoneNumber: UNDELIVERABLE });
    if (started.status !== 'sent') throw new Error('not sent');
    await emulator.clock.advance(1500);
    time.advance(1000);
    const answers = [started, await otp.resend(started.id), await otp.check(started.id, '000000')];
    const code = codeOf(UNDELIVERABLE)!;
    expect(JSON.stringify([answers, events])).not.toContain(code);
  });
});
