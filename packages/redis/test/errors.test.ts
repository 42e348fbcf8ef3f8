// Misuse of createRedisReplayStore is an XError (the SDK's one error base) with a stable code.
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { createRedisReplayStore } from '../src/index.js';

describe('createRedisReplayStore without a usable client', () => {
  it.each([
    ['no options', undefined, 'invalid_options'],
    ['no client', {}, 'invalid_options'],
    ['a client without eval', { client: { set: async () => 'OK' } }, 'unsupported_client'],
  ])('%s: XError %s, saying what to pass', (_name, options, code) => {
    let thrown: unknown;
    try {
      createRedisReplayStore(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(XError);
    expect(thrown).toMatchObject({ code });
    expect((thrown as Error).message).toMatch(/new Redis\(process\.env\.REDIS_URL\)/);
  });
});
