// A send that failed without an answer (timeout, connection lost) may still have gone out. The
// error says so in `sent` (false | 'unknown', TimeoutError like NetworkError), and its message
// says why it is not retried and what to do: look the status up, or wait for the callback.
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, TimeoutError, createClient, type ClientOptions } from '../src/index.js';
import { createNodeFetch } from '../src/node/index.js';
import { freePort } from '../../../testing/support.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

let recorder: RecordingServer;
beforeAll(async () => {
  recorder = await startRecordingServer([DEFAULT_CUSTOMER]);
});
afterAll(() => recorder.close());
beforeEach(() => recorder.reset());

const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);
const REFERENCE = '0123456789ABCDEF0123456789ABCDEF';
const TRANSPORTS: [string, Partial<ClientOptions>][] = [
  ['the default transport', {}],
  ['the global fetch', { fetch: (url, init) => fetch(url, init) }],
  ['createNodeFetch', { fetch: createNodeFetch() }],
];
const client = (extra: Partial<ClientOptions>) => createClient({ ...DEFAULT_CUSTOMER, baseUrl: recorder.url, timeoutMs: 400, retry: { retries: 2, minDelayMs: 0, maxDelayMs: 0 }, ...extra });

const SENDS = {
  'an SMS': (c: ReturnType<typeof client>) => c.messaging.send({ phoneNumber: '15555550300', message: 'hello', messageType: 'ARN' }),
  'a call': (c: ReturnType<typeof client>) => c.voice.call({ phoneNumber: '15555550300', message: 'hello', messageType: 'ARN' }),
  'a verification SMS': (c: ReturnType<typeof client>) => c.verify.sms({ phoneNumber: '15555550300' }),
};

/** The advice of a send that may have gone out. */
function expectMayHaveGoneOut(message: string): void {
  expect(message).toMatch(/may have (reached the service|gone out)/);
  expect(message).toMatch(/not retried/);
  expect(message).toMatch(/twice/);
  expect(message).toMatch(/reference id/i);
  expect(message).toMatch(/callback/);
}

describe('a send that timed out', () => {
  for (const [transport, extra] of TRANSPORTS) {
    for (const [what, call] of Object.entries(SENDS)) {
      it(`${what} with ${transport}: TimeoutError, sent 'unknown', sent once, and the message says what to do`, async () => {
        recorder.script({ status: 200, delayMs: 5_000 });
        const error = (await failure(call(client(extra)))) as TimeoutError;
        expect(error).toBeInstanceOf(TimeoutError);
        expect(error.sent).toBe('unknown');
        expect(recorder.requests).toHaveLength(1);
        expectMayHaveGoneOut(error.message);
      });
    }
  }

  it("a status lookup (idempotent) that timed out is retried; its error has sent 'unknown' and no send advice", async () => {
    recorder.script({ status: 200, delayMs: 5_000 }, { status: 200, delayMs: 5_000 }, { status: 200, delayMs: 5_000 });
    const error = (await failure(client({}).messaging.status(REFERENCE))) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.sent).toBe('unknown');
    expect(recorder.requests).toHaveLength(3);
    expect(error.message).not.toMatch(/not retried|callback/);
  });
});

describe('a send whose connection was lost: NetworkError with the same advice', () => {
  for (const [transport, extra] of TRANSPORTS) {
    it(`an SMS with ${transport}`, async () => {
      recorder.script('reset');
      const error = (await failure(SENDS['an SMS'](client(extra)))) as NetworkError;
      expect(error).toBeInstanceOf(NetworkError);
      expect(error.sent).toBe('unknown');
      expect(recorder.requests).toHaveLength(1);
      expectMayHaveGoneOut(error.message);
    });
  }

  it('a send that provably never left (refused) is retried and says so, without the advice', async () => {
    const error = (await failure(SENDS['an SMS'](client({ baseUrl: `http://127.0.0.1:${await freePort()}` })))) as NetworkError;
    expect(error.sent).toBe(false);
    expect(error.message).not.toMatch(/may have/);
  });
});
