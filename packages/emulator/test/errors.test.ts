// The emulator's errors share the SDK's one error base (XError from @x/auth) and its stable code.
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_CUSTOMER, EmulatorError, FaultRuleError, InboundError } from '../src/index.js';
import { local } from './helpers.js';

describe('emulator errors are XErrors', () => {
  it('a refused fault rule and a refused inbound SMS', () => {
    const emulator = createEmulator();
    const caught = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
      return expect.fail('expected a throw');
    };
    const fault = caught(() => emulator.faults.add({ type: 'nonsense' } as never));
    const inbound = caught(() => emulator.inbound({ from: 'x', to: 'y', text: '' }));
    for (const [error, Class, code] of [[fault, FaultRuleError, 'invalid_fault'], [inbound, InboundError, 'invalid_inbound']] as const) {
      expect(error).toBeInstanceOf(Class);
      expect(error).toBeInstanceOf(EmulatorError);
      expect(error).toBeInstanceOf(XError);
      expect((error as EmulatorError).code).toBe(code);
    }
    emulator.close();
  });
});

describe('a route that throws', () => {
  /** An account whose callback URL throws when a route reads it (after the request was verified). */
  const brittle = (id: string) => ({
    customerId: id,
    apiKey: DEFAULT_CUSTOMER.apiKey,
    get callbackUrl(): string {
      throw new Error('the account store is down');
    },
  });

  it.each([
    ['POST', '/v1/messaging', { phone_number: '15555550100', message: 'hi', message_type: 'ARN' }, 'positive'],
    ['POST', '/v1/verify/sms', { phone_number: '15555550100' }, 'negative'],
  ] as const)('%s %s answers 500 in its product family, and logs the error', async (method, path, form, family) => {
    const errors: unknown[][] = [];
    const emulator = createEmulator({ logger: { error: (...args: unknown[]) => void errors.push(args), warn: () => undefined } });
    const account = brittle('7E0F6E2C-0000-4000-8000-00000000B0B0');
    emulator.customers.set(account.customerId, account as never);
    const { status, body } = await local(emulator, method, path, { form, credentials: account });
    expect(status).toBe(500);
    // The product's family: the positive one has status.code, the negative one errors[] (as the service's).
    if (family === 'positive') expect(body).toMatchObject({ status: { code: 500 } });
    else expect(body).toMatchObject({ errors: [{ code: -90001 }] });
    expect(errors).toHaveLength(1);
    expect(String(errors[0]![0])).toContain(`${method} ${path} failed; answered 500.`);
    expect(JSON.stringify(emulator.journal.list().at(-1))).toContain('"status":500');
    emulator.close();
  });
});
