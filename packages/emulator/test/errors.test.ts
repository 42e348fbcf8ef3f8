// The emulator's errors share the SDK's one error base (XError from @x/auth) and its stable code.
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError, FaultRuleError, InboundError } from '../src/index.js';

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
