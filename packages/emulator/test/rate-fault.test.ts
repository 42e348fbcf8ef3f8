// The rate-limit fault: past N requests a second of one customer (the emulator's clock, a sliding
// window), 429 in the product's family with Retry-After, the request unprocessed; each customer
// counted on its own. Set from the API, the control route (what the inspector's form and the CLI's
// --rate-limit send) and the CLI flag (cli.test.ts).
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_CUSTOMER, FaultRuleError } from '../src/index.js';
import { startEmulator } from '../src/node.js';
import { call, local } from './helpers.js';

const other = { customerId: '00000000-0000-4000-8000-000000000002', apiKey: btoa('another account key, 32 bytes..') };
const sms = (n: number) => ({ phone_number: '15555550130', message: `message ${n}`, message_type: 'ARN' });

/** An emulator on a clock the test moves (signed requests stay within the allowed skew). */
function emulatorAt() {
  let at = Date.now();
  const emulator = createEmulator({ customers: [DEFAULT_CUSTOMER, other], now: () => at });
  return { emulator, move: (ms: number) => (at += ms) };
}

describe('rate fault', () => {
  it('from the API: the 4th request of a customer within a second is 429 with Retry-After, unprocessed; others are not limited; it is admitted once the window moves', async () => {
    const { emulator, move } = emulatorAt();
    emulator.faults.add({ type: 'rate', perSecond: 3 });
    for (let n = 0; n < 3; n++) {
      expect((await local(emulator, 'POST', '/v1/messaging', { form: sms(n) })).status).toBe(200);
      move(100);
    }
    const limited = await local(emulator, 'POST', '/v1/messaging', { form: sms(3) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.status.code).toBe(10019);
    expect(emulator.outbox.list({ phoneNumber: '15555550130' })).toHaveLength(3);
    // Another customer has a window of its own; the Verify family answers its own code.
    expect((await local(emulator, 'POST', '/v1/messaging', { form: sms(4), credentials: other })).status).toBe(200);
    // 429s do not count: once the first admitted request is a second old, one more is admitted.
    move(701);
    expect((await local(emulator, 'POST', '/v1/messaging', { form: sms(5) })).status).toBe(200);
    const verify = await local(emulator, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550130' } });
    expect(verify.status).toBe(429);
    expect(verify.body.errors[0].code).toBe(-40007);
    const journal = emulator.journal.list({}).filter((e) => e.verdict === 'fault:rate');
    expect(journal.map((e) => [e.status, e.fault])).toEqual([
      [429, 'rate'],
      [429, 'rate'],
    ]);
    // The rule stays until removed; listed without times.
    expect(emulator.faults.list()).toEqual([{ type: 'rate', perSecond: 3 }]);
    emulator.close();
  });

  it('a request refused by authentication is not counted; method and path narrow the rule; retryAfterSeconds replaces the computed value', async () => {
    const { emulator } = emulatorAt();
    emulator.faults.add({ type: 'rate', perSecond: 1, method: 'POST', path: '/v1/messaging', retryAfterSeconds: 30 });
    expect((await local(emulator, 'POST', '/v1/messaging', { form: sms(0), credentials: { ...DEFAULT_CUSTOMER, apiKey: btoa('a wrong key of thirty-two bytes.') } })).status).toBe(401);
    expect((await local(emulator, 'POST', '/v1/messaging', { form: sms(1) })).status).toBe(200);
    expect((await local(emulator, 'GET', '/v1/voice')).status).toBe(200);
    const limited = await local(emulator, 'POST', '/v1/messaging', { form: sms(2) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    emulator.close();
  });

  it.each([
    [{ type: 'rate' }, 'perSecond'],
    [{ type: 'rate', perSecond: 0 }, 'perSecond'],
    [{ type: 'rate', perSecond: 2.5 }, 'perSecond'],
    [{ type: 'rate', perSecond: '10' }, 'perSecond'],
    [{ type: 'rate', perSecond: 10, times: 3 }, 'times'],
    [{ type: 'rate', perSecond: 10, probability: 0.5 }, 'probability'],
    [{ type: 'rate', perSecond: 10, retryAfterSeconds: -1 }, 'retryAfterSeconds'],
  ])('a bad rule (%o) is refused naming %s', (rule, field) => {
    const emulator = createEmulator();
    expect(() => emulator.faults.add(rule as never)).toThrow(FaultRuleError);
    expect(() => emulator.faults.add(rule as never)).toThrow(expect.objectContaining({ field }));
    expect(emulator.faults.list()).toEqual([]);
    emulator.close();
  });

  it('through the control route the inspector uses (POST /_emulator/faults, as its form sends it), over HTTP', async () => {
    const at = Date.now();
    const server = await startEmulator({ now: () => at });
    try {
      const added = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'rate', perSecond: 2 }) });
      expect(added.status).toBe(201);
      expect(await added.json()).toEqual({ faults: [{ type: 'rate', perSecond: 2 }] });
      const statuses: number[] = [];
      for (let n = 0; n < 4; n++) statuses.push((await call(server.url, 'POST', '/v1/messaging', { form: sms(n) })).status);
      // Four requests at one instant of the emulator's clock: two admitted, two refused.
      expect(statuses).toEqual([200, 200, 429, 429]);
      const removed = await fetch(`${server.url}/_emulator/faults/0`, { method: 'DELETE' });
      expect(await removed.json()).toEqual({ faults: [] });
      expect((await call(server.url, 'POST', '/v1/messaging', { form: sms(9) })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
