// The Verify API as the flow's sender, against the in-process emulator on the flow's clock: each
// send is a verification (POST /verification), checks and completion are finalize (PATCH .../state).
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createOtp, type OtpEvent } from '../src/index.js';
import { verifyApiSender } from '../src/verify-api.js';
import { clock, emulated, wrong } from './support.js';

const PHONE = '15555550600';
const UNDELIVERABLE = '15555550001';

function setup(options: Partial<Parameters<typeof createOtp>[0]> = {}, sender = verifyApiSender()) {
  const time = clock(Date.now());
  const parts = emulated({ now: time.now, deliveryDelayMs: 2_000 });
  const otp = createOtp({ client: parts.client, now: time.now, sender, ...options });
  /** The requests the emulator saw, as `METHOD path`. */
  const requests = () => parts.emulator.journal.list().map((e) => `${e.method} ${e.path.replace(/[0-9A-F]{32}/i, ':id')}`);
  const verification = async (referenceId: string) => (await parts.client.verifyApi.get(referenceId)).data;
  return { ...parts, time, otp, requests, verification };
}

describe('verifyApiSender: the flow on the Verify API', () => {
  it('codes from the SDK: the code goes as the security factor, checks stay local, the right one finalizes the verification', async () => {
    const { otp, emulator, requests, verification } = setup();
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'sent', channel: 'sms' });
    if (started.status !== 'sent') return;
    const sent = emulator.outbox.latest(PHONE)!;
    expect(sent).toMatchObject({ product: 'verify_api', channel: 'sms' });
    expect(sent.code).toMatch(/^\d{6}$/);
    expect(requests()).toEqual(['POST /verification']);
    expect(await verification(sent.referenceId)).toMatchObject({ state: 'ONGOING', external_id: started.id });

    expect(await otp.check(started.id, wrong(sent.code!))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(requests()).toHaveLength(2); // the wrong code never reached the service (the GET above is the second)
    expect(await otp.check(started.id, sent.code!)).toEqual({ status: 'valid', phoneNumber: PHONE });
    expect(requests().at(-1)).toBe('PATCH /verification/:id/state');
    expect(await verification(sent.referenceId)).toMatchObject({ state: 'VERIFIED' });
    expect(await otp.check(started.id, sent.code!)).toEqual({ status: 'expired' });
  });

  it('codes from the SDK: a finalize the service does not accept (its code validity ran out) is a completion_failed event, never a code', async () => {
    const events: OtpEvent[] = [];
    const { otp, emulator, time } = setup({ onEvent: (e) => events.push(e) });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = emulator.outbox.latest(PHONE)!.code!;
    time.advance(301_000); // the flow's code lives 10 minutes; the emulator's account validity is 300 s
    expect(await otp.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: PHONE });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'completion_failed', id: started.id });
    const error = (events[0] as { error: unknown }).error;
    expect(error).toBeInstanceOf(XError);
    expect(error).toMatchObject({ code: 'verification_not_finalized' });
    expect(String((error as Error).message)).toMatch(/3935/);
    expect(JSON.stringify(events) + String((error as Error).message)).not.toContain(code);
  });

  it('codes from the service: each check finalizes; wrong is invalid, right is valid', async () => {
    const { otp, emulator, verification } = setup({ codes: 'service' });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = emulator.outbox.latest(PHONE)!.code!;
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'invalid', attemptsLeft: 4 });
    expect(await otp.check(started.id, code)).toEqual({ status: 'valid', phoneNumber: PHONE });
    expect(await verification(emulator.outbox.latest(PHONE)!.referenceId)).toMatchObject({ state: 'VERIFIED' });
  });

  it('codes from the service: a verification the service rejected (its attempts used up) answers expired, not invalid', async () => {
    const { otp, emulator } = setup({ codes: 'service', maxAttempts: 5 });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const code = emulator.outbox.latest(PHONE)!.code!;
    expect(await otp.check(started.id, wrong(code))).toMatchObject({ status: 'invalid' });
    expect(await otp.check(started.id, wrong(code))).toMatchObject({ status: 'invalid' });
    // The emulator's account allows 3 attempts: the third wrong code rejects the verification (3904).
    expect(await otp.check(started.id, wrong(code))).toEqual({ status: 'expired' });
    expect(await otp.check(started.id, code)).toEqual({ status: 'expired' });
  });

  it('a resend is a new verification with a new code; the previous code stops working', async () => {
    const { otp, emulator, time } = setup({ resendCooldownMs: 30_000 });
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    const first = emulator.outbox.latest(PHONE)!;
    expect(await otp.resend(started.id)).toMatchObject({ status: 'refused', reason: 'resend_cooldown' });
    time.advance(30_000);
    expect(await otp.resend(started.id)).toMatchObject({ status: 'sent', channel: 'sms' });
    const second = emulator.outbox.latest(PHONE)!;
    expect(second.referenceId).not.toBe(first.referenceId);
    expect(emulator.outbox.list({ phoneNumber: PHONE })).toHaveLength(2);
    if (second.code !== first.code) expect(await otp.check(started.id, first.code!)).toMatchObject({ status: 'invalid' });
    expect(await otp.check(started.id, second.code!)).toMatchObject({ status: 'valid' });
  });

  it("the policy's fallback is the service's: an undeliverable SMS goes on by WhatsApp with the same code", async () => {
    const { otp, emulator, time } = setup({}, verifyApiSender({ policy: [{ method: 'sms', fallbackTime: 30 }, { method: 'whatsapp' }] }));
    const started = await otp.start({ phoneNumber: UNDELIVERABLE });
    if (started.status !== 'sent') throw new Error('not sent');
    time.advance(2_000);
    await emulator.idle();
    const sent = emulator.outbox.list({ phoneNumber: UNDELIVERABLE });
    expect(sent.map((m) => m.channel)).toEqual(['sms', 'whatsapp']);
    expect(await otp.check(started.id, sent[1]!.code!)).toEqual({ status: 'valid', phoneNumber: UNDELIVERABLE });
  });

  it('misuse throws a typed error that says what to do; a call is not a channel of the Verify API', async () => {
    const { client } = setup();
    expect(() => createOtp({ client, sender: verifyApiSender(), channels: ['sms', 'call'] })).toThrow(/channels must list sms once/);
    expect(() => verifyApiSender({ policy: [{ method: 'email' }] })).toThrow(XError);
    expect(() => verifyApiSender({ policy: [{ method: 'email' }] })).toThrow(/without 'email'/);
    const { otp } = setup();
    const started = await otp.start({ phoneNumber: PHONE });
    if (started.status !== 'sent') throw new Error('not sent');
    await expect(otp.resend(started.id, { channel: 'call' })).rejects.toThrow(/not one of this flow's channels \(sms\)/);
  });

  it('a policy the service refuses is a send_failed refusal, and no flow is left behind', async () => {
    const { otp, emulator } = setup({}, verifyApiSender({ template: 'no such template!' }));
    const started = await otp.start({ phoneNumber: PHONE });
    expect(started).toMatchObject({ status: 'refused', reason: 'send_failed' });
    expect(emulator.outbox.list({ phoneNumber: PHONE })).toHaveLength(0);
  });
});
