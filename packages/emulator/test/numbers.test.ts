// Number scripts: what each channel of a number does next, steps taken in order; the test suffixes
// as the default rules; every valid script round-trips, every invalid one is refused by its path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_NUMBER_RULES, parseEmulatorConfig, parseNumberScript, PHONE_TYPES, ShapeError, TEST_NUMBERS, type NumberScript } from '../src/index.js';
import { FINAL_STATUS } from '../src/service/codes.js';
import { local } from './helpers.js';

const sms = (phone_number: string) => ({ form: { phone_number, message: 'hello', message_type: 'ARN' } });
const control = (emulator: ReturnType<typeof createEmulator>, method: string, path: string, body?: unknown) =>
  emulator.fetch(`http://emulator.local/_emulator${path}`, { method, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
const finalOf = async (emulator: ReturnType<typeof createEmulator>, referenceId: string) => {
  await emulator.clock.advance(1_000);
  return emulator.transactions.get(referenceId)!.status.code;
};

describe('number scripts', () => {
  it('"this number\'s SMS fails, then its call is answered" (set through the control API), then the default rules', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 100 });
    const set = await control(emulator, 'POST', '/numbers', { number: '15555550001', steps: [{ sms: 'undeliverable' }, { call: 'answered' }, { sms: 'delivered' }] });
    expect(set.status).toBe(201);
    const first = await local(emulator, 'POST', '/v1/messaging', sms('15555550001'));
    const call = await local(emulator, 'POST', '/v1/voice', sms('15555550001'));
    const second = await local(emulator, 'POST', '/v1/messaging', sms('15555550001'));
    expect(await finalOf(emulator, first.body.reference_id)).toBe(207);
    expect(await finalOf(emulator, call.body.reference_id)).toBe(100); // ...0001 alone: 101 not answered
    expect(await finalOf(emulator, second.body.reference_id)).toBe(200); // ...0001 alone: 207
    expect(emulator.numbers.list()).toEqual([]);
    // Used up: the suffix's default rule again.
    const after = await local(emulator, 'POST', '/v1/voice', sms('15555550001'));
    expect(await finalOf(emulator, after.body.reference_id)).toBe(TEST_NUMBERS['0001']!.voice);
  });

  it('delayed by N ms on the emulator clock; busy and not answered calls; Voice Verify takes the call steps', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 100, numbers: [{ prefix: '1555777', steps: [{ sms: 'delivered', delayMs: 60_000 }, { call: 'busy' }, { call: 'not_answered' }] }] });
    const slow = await local(emulator, 'POST', '/v1/messaging', sms('15557770100'));
    await emulator.clock.advance(59_000);
    expect(emulator.transactions.get(slow.body.reference_id)!.status.code).toBe(290);
    await emulator.clock.advance(1_000);
    expect(emulator.transactions.get(slow.body.reference_id)!.status.code).toBe(200);
    const busy = await local(emulator, 'POST', '/v1/voice', sms('15557770200'));
    const verifyCall = await local(emulator, 'POST', '/v1/verify/call', { form: { phone_number: '15557770300' } });
    expect(await finalOf(emulator, busy.body.reference_id)).toBe(107);
    expect(await finalOf(emulator, verifyCall.body.reference_id)).toBe(101);
  });

  it('PhoneID type and Score risk; an exact number wins over a prefix; the event stream carries each change', async () => {
    const emulator = createEmulator();
    const changes: number[] = [];
    emulator.events.subscribe((event) => event.type === 'numbers' && changes.push(event.data.numbers.length));
    emulator.numbers.add({ prefix: '1555', steps: [{ phoneid: { type: 'FIXED_LINE' } }] });
    emulator.numbers.add({ number: '15555550123', steps: [{ phoneid: { type: 'VOIP', risk: 820 } }] });
    const exact = await local(emulator, 'POST', '/v1/score/15555550123', { form: { account_lifecycle_event: 'create' } });
    expect(exact.body.phone_type).toEqual({ code: PHONE_TYPES.VOIP, description: 'VOIP' });
    expect(exact.body.risk).toEqual({ level: 'high', recommendation: 'block', score: 820 });
    const prefixed = await local(emulator, 'POST', '/v1/phoneid/15555550123', { form: {} });
    expect(prefixed.body.phone_type).toEqual({ code: '1', description: 'FIXED_LINE' });
    const plain = await local(emulator, 'POST', '/v1/phoneid/15555550123', { form: {} });
    expect(plain.body.phone_type).toEqual({ code: '2', description: 'MOBILE' });
    expect(changes).toEqual([1, 2, 1, 0]);
  });

  it('the eight suffixes are listed as the default rules, as TEST_NUMBERS says', async () => {
    const listed = (await (await control(createEmulator(), 'GET', '/numbers')).json()) as { numbers: unknown[]; defaults: Array<{ suffix: string; sms: number; call: number }> };
    expect(listed.numbers).toEqual([]);
    expect(listed.defaults.map((d) => d.suffix)).toEqual(Object.keys(TEST_NUMBERS));
    expect(listed.defaults.map((d) => [d.sms, d.call])).toEqual(Object.values(TEST_NUMBERS).map((o) => [o.sms, o.voice]));
    expect(DEFAULT_NUMBER_RULES).toHaveLength(8);
  });

  it('PUT replaces, DELETE clears; a bad script answers 400 with the path of the field and changes nothing', async () => {
    const emulator = createEmulator();
    expect((await control(emulator, 'PUT', '/numbers', { numbers: [{ number: '1', steps: [{ sms: 'delivered' }] }] })).status).toBe(200);
    const bad = await control(emulator, 'PUT', '/numbers', { numbers: [{ number: '2', steps: [{ sms: 'delivered' }, { call: 'ringing' }] }] });
    expect(bad.status).toBe(400);
    const answer = (await bad.json()) as { code: string; field: string; error: string };
    expect(answer).toMatchObject({ code: 'invalid_script', field: 'numbers[0].steps[1].call' });
    expect(answer.error).toMatch(/must be one of "answered", "not_answered", "busy"/);
    expect(emulator.numbers.list()).toEqual([{ number: '1', steps: [{ sms: 'delivered' }] }]);
    expect((await control(emulator, 'DELETE', '/numbers')).status).toBe(200);
    expect(emulator.numbers.list()).toEqual([]);
  });
});

// Valid scripts, built from the same lists the checks use.
const delay = fc.option(fc.integer({ min: 0, max: 86_400_000 }), { nil: undefined });
const step = fc.oneof(
  fc.record({ sms: fc.oneof(fc.constantFrom('delivered' as const, 'undeliverable' as const), fc.constantFrom(...FINAL_STATUS.sms)), delayMs: delay }),
  fc.record({ call: fc.oneof(fc.constantFrom('answered' as const, 'not_answered' as const, 'busy' as const), fc.constantFrom(...FINAL_STATUS.voice)), delayMs: delay }),
  fc.record({ phoneid: fc.record({ type: fc.constantFrom(...(Object.keys(PHONE_TYPES) as Array<keyof typeof PHONE_TYPES>)), risk: fc.integer({ min: 1, max: 1000 }) }, { requiredKeys: ['type'] }) }),
);
const digits = fc.stringMatching(/^[0-9]{1,15}$/);
const script: fc.Arbitrary<NumberScript> = fc.oneof(
  fc.record({ number: digits, steps: fc.array(step, { maxLength: 6 }) }),
  fc.record({ prefix: digits, steps: fc.array(step, { maxLength: 6 }) }),
);
const drop = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('number scripts: properties', () => {
  it('any valid script round-trips: through JSON, the check and the emulator\'s list', () => {
    fc.assert(
      fc.property(fc.array(script, { maxLength: 5 }), (scripts) => {
        const sent = drop(scripts);
        const emulator = createEmulator({ numbers: sent });
        expect(emulator.numbers.list()).toEqual(sent);
        expect(parseEmulatorConfig({ numbers: sent }).numbers).toEqual(sent);
      }),
    );
  });

  it('an invalid value anywhere is refused with its path, and nothing is added', () => {
    // [where to break it, the bad value, the path the error must name]
    const breakers: Array<[(s: Record<string, any>) => void, string]> = [
      [(s) => (s.steps[0] = { sms: 'lost' }), 'script.steps[0].sms'],
      [(s) => (s.steps[0] = { call: 418 }), 'script.steps[0].call'],
      [(s) => (s.steps[0] = { sms: 200, delayMs: -5 }), 'script.steps[0].delayMs'],
      [(s) => (s.steps[0] = { phoneid: { type: 'SATELLITE' } }), 'script.steps[0].phoneid.type'],
      [(s) => (s.steps[0] = { phoneid: { risk: 1001 } }), 'script.steps[0].phoneid.risk'],
      [(s) => (s.steps[0] = { phoneid: {} }), 'script.steps[0].phoneid'],
      [(s) => (s.steps[0] = { fax: 'x' }), 'script.steps[0]'],
      [(s) => (s.steps[0] = { sms: 'delivered', colour: 'red' }), 'script.steps[0].colour'],
      [(s) => (s.steps = 'sms'), 'script.steps'],
      [(s) => (s.extra = 1), 'script.extra'],
      [(s) => ('number' in s ? (s.number = '+1 555') : (s.prefix = '')), 'script.'],
      [(s) => ('number' in s ? (s.prefix = '1') : (s.number = '1')), 'script'],
    ];
    fc.assert(
      fc.property(script, fc.constantFrom(...breakers), (valid, [breakIt, path]) => {
        const broken = drop(valid) as Record<string, any>;
        if (broken.steps.length === 0) broken.steps.push({ sms: 'delivered' });
        breakIt(broken);
        const emulator = createEmulator();
        let error: unknown;
        try {
          emulator.numbers.add(broken as NumberScript);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(ShapeError);
        const field = (error as ShapeError).field;
        if (path === 'script.') expect(field).toMatch(/^script\.(number|prefix)$/);
        else expect(field).toBe(path);
        expect((error as ShapeError).message).toMatch(/^script[^:]*: (must|needs|is not)/);
        expect(emulator.numbers.list()).toEqual([]);
        expect(() => parseNumberScript(broken)).toThrow(ShapeError);
      }),
    );
  });

  it('a seed file: a bad fault rule is refused by its path too', () => {
    expect(() => parseEmulatorConfig({ faults: [{ type: 'status', status: 503 }, { type: 'status', status: 418 }] })).toThrow(expect.objectContaining({ field: 'faults[1].status' }));
    expect(() => parseEmulatorConfig({ numbers: [], extra: true })).toThrow(expect.objectContaining({ field: 'config.extra' }));
  });
});
