// Exactly-once callbacks, the same scenarios for every adapter (Express 4, Express 5, Fastify)
// and every store (memory, Redis): real HTTP on 127.0.0.1, the emulator as the sender where the
// service's retries matter. A receiver runs a scripted handler, so a test decides what the
// handler does on each run (succeed, answer 5xx, throw, block until released, never settle).
// The packages come in through `Tools` (this folder has no workspace dependencies of its own).
import { describe, expect, it } from 'vitest';

type CallbackPayload = { reference_id: string };
type Signed = { body: string; headers: Record<string, string> };

/** What the scenarios need from the packages of the test that runs them. */
export interface Tools {
  /** createSignedCallback(payload, credentials) */
  sign(payload: CallbackPayload): Signed;
  /** Starts the emulator with fast retries ([20, 20] ms) and this callback URL. */
  startSender(callbackUrl: string): Promise<Sender>;
}
export interface Sender {
  /** Sends an SMS through the emulator; resolves its reference id. */
  sendSms(): Promise<string>;
  idle(): Promise<void>;
  attempts(referenceId: string): Array<{ status?: number; body: string; headers: Record<string, string> }>;
  close(): Promise<void>;
}

/** The store contract, structurally (DeliveryStore of @x/auth). */
export interface DeliveryStoreLike {
  begin(key: string, leaseMs: number): unknown;
  complete(key: string, token: string, ttlMs: number): unknown;
  abandon(key: string, token: string): unknown;
}

/** What the handler does on one run. `throw` is thrown synchronously when returned synchronously. */
export type Action = 'ok' | 'fail' | 'throw';
export type Behaviour = (payload: CallbackPayload) => Action | Promise<Action>;

export interface ReceiverOptions {
  replayStore: DeliveryStoreLike;
  leaseMs?: number;
}
export interface Receiver {
  /** The callback route. */
  url: string;
  close(): Promise<void>;
}
/** Starts a server whose callback route verifies with the adapter and then runs `behave`. */
export type StartReceiver = (options: ReceiverOptions, behave: Behaviour) => Promise<Receiver>;

export interface StoreUnderTest {
  store: DeliveryStoreLike;
  /** Lets the lease of an in-progress delivery run out (advance a clock, or wait on Redis). */
  leaseMs: number;
  outlive(ms: number): Promise<void> | void;
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n = 0;
export const freshPayload = () => ({
  sub_resource: 'sms' as const,
  reference_id: `${Date.now().toString(16)}${(++n).toString(16)}${Math.random().toString(16).slice(2)}`.slice(0, 32).padEnd(32, '0').toUpperCase(),
  errors: [] as never[],
  status: { code: 200, description: 'Delivered to handset', updated_on: '2026-01-01T00:00:00.000000Z' },
});

/** A handler whose runs are counted and whose actions are scripted per run (then `ok`). `block` waits for `release` and succeeds; `block-fail` waits and answers 500. */
export function script(...actions: Array<Action | 'block' | 'block-fail' | 'hang' | 'sync-throw'>) {
  const runs: CallbackPayload[] = [];
  const successes: CallbackPayload[] = [];
  const gates: Array<ReturnType<typeof deferred>> = [];
  const entered: Array<ReturnType<typeof deferred>> = [];
  const behave: Behaviour = (payload) => {
    const i = runs.length;
    runs.push(payload);
    entered[i]?.resolve();
    const action = actions[i] ?? 'ok';
    if (action === 'sync-throw') throw new Error('the handler threw (its database is down)');
    if (action === 'hang') return new Promise<Action>(() => {});
    if (action === 'block' || action === 'block-fail') {
      gates[i] ??= deferred();
      return gates[i]!.promise.then(() => {
        if (action === 'block-fail') return 'fail' as const;
        successes.push(payload);
        return 'ok' as const;
      });
    }
    if (action === 'ok') successes.push(payload);
    return action;
  };
  return {
    behave,
    runs,
    successes,
    /** Resolves once run `i` (0-based) has started. */
    entered(i: number) {
      if (runs.length > i) return Promise.resolve();
      entered[i] ??= deferred();
      return entered[i]!.promise;
    },
    /** Lets a blocked run `i` answer 200. */
    release(i: number) {
      (gates[i] ??= deferred()).resolve();
    },
  };
}

const post = (url: string, signed: Signed, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', body: signed.body, headers: signed.headers, signal });

/**
 * Posts until the answer is not 503: the lease ran out, the abandon landed, or (on an asynchronous
 * store) the success being recorded as the response finished. At most ~10 s.
 */
async function postUntilNot503(url: string, signed: Signed, before?: () => Promise<void> | void) {
  for (let i = 0; i < 100; i++) {
    await before?.();
    const r = await post(url, signed);
    if (r.status !== 503) return r;
    await r.arrayBuffer();
    await sleep(100);
  }
  throw new Error('still 503 after 10 s');
}

export function exactlyOnceScenarios(name: string, start: StartReceiver, storeUnderTest: () => StoreUnderTest, tools: Tools) {
  describe(`exactly-once callbacks: ${name}`, () => {
    it('a handler that fails once (answers 500) sees the retry, which succeeds; success is recorded once', async () => {
      const handler = script('fail');
      const receiver = await start({ replayStore: storeUnderTest().store }, handler.behave);
      const sender = await tools.startSender(receiver.url);
      try {
        const referenceId = await sender.sendSms();
        await sender.idle();
        const attempts = sender.attempts(referenceId);
        expect(attempts.map((a) => a.status)).toEqual([500, 200]);
        expect(handler.runs).toHaveLength(2);
        expect(handler.successes).toHaveLength(1);
        // A late copy of the same delivery: answered 200 duplicate, the handler is not run again.
        const late = await postUntilNot503(receiver.url, { body: attempts[0]!.body, headers: attempts[0]!.headers });
        expect(late.status).toBe(200);
        expect(await late.json()).toEqual({ duplicate: true });
        expect(handler.runs).toHaveLength(2);
      } finally {
        await sender.close();
        await receiver.close();
      }
    });

    it('a thrown handler error releases the mark: the next delivery is processed, then it is a duplicate', async () => {
      const handler = script('sync-throw');
      const receiver = await start({ replayStore: storeUnderTest().store }, handler.behave);
      try {
        const signed = tools.sign(freshPayload());
        expect((await post(receiver.url, signed)).status).toBe(500);
        const retry = await post(receiver.url, signed);
        expect(retry.status).toBe(200);
        expect(await retry.json()).toEqual({ ok: true });
        expect(await (await postUntilNot503(receiver.url, signed)).json()).toEqual({ duplicate: true });
        expect(handler.runs).toHaveLength(2);
        expect(handler.successes).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    });

    it('an async handler failure (error passed on / thrown after await) releases the mark too', async () => {
      const handler = script();
      let failNext = true;
      const receiver = await start({ replayStore: storeUnderTest().store }, async (payload) => {
        const action = await handler.behave(payload);
        if (failNext) {
          failNext = false;
          return 'throw';
        }
        return action;
      });
      try {
        const signed = tools.sign(freshPayload());
        expect((await post(receiver.url, signed)).status).toBe(500);
        expect(await (await post(receiver.url, signed)).json()).toEqual({ ok: true });
        expect(await (await postUntilNot503(receiver.url, signed)).json()).toEqual({ duplicate: true });
      } finally {
        await receiver.close();
      }
    });

    it('a copy arriving while the first is in progress gets 503 + Retry-After (never 2xx); the handler runs once', async () => {
      const handler = script('block');
      const receiver = await start({ replayStore: storeUnderTest().store }, handler.behave);
      try {
        const signed = tools.sign(freshPayload());
        const first = post(receiver.url, signed);
        await handler.entered(0);
        const copy = await post(receiver.url, signed);
        expect(copy.status).toBe(503);
        expect(copy.headers.get('retry-after')).toBe('30');
        expect(await copy.json()).toMatchObject({ error: 'in_progress' });
        handler.release(0);
        expect((await first).status).toBe(200);
        expect(await (await postUntilNot503(receiver.url, signed)).json()).toEqual({ duplicate: true });
        expect(handler.runs).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    });

    it('a delivery whose handler never settles (its process died) is processed once the lease runs out', async () => {
      const { store, leaseMs, outlive } = storeUnderTest();
      const handler = script('hang');
      const receiver = await start({ replayStore: store, leaseMs }, handler.behave);
      const abort = new AbortController();
      try {
        const signed = tools.sign(freshPayload());
        void post(receiver.url, signed, abort.signal).catch(() => undefined);
        await handler.entered(0);
        const blocked = await post(receiver.url, signed);
        expect(blocked.status).toBe(503);
        let outlived = false;
        const next = await postUntilNot503(receiver.url, signed, async () => {
          if (!outlived) await outlive(leaseMs);
          outlived = true;
        });
        expect(next.status).toBe(200);
        expect(handler.runs).toHaveLength(2);
        expect(handler.successes).toHaveLength(1);
      } finally {
        abort.abort();
        await receiver.close();
      }
    });

    it('a handler that outlives its lease and then succeeds is recorded: the copy that took over and then fails does not release it', async () => {
      const { store, leaseMs, outlive } = storeUnderTest();
      const handler = script('block', 'block-fail');
      const receiver = await start({ replayStore: store, leaseMs }, handler.behave);
      try {
        const signed = tools.sign(freshPayload());
        const first = post(receiver.url, signed);
        await handler.entered(0);
        await outlive(leaseMs);
        const copy = post(receiver.url, signed);
        await handler.entered(1); // the copy took over the expired lease
        handler.release(0);
        expect((await first).status).toBe(200);
        handler.release(1);
        expect((await copy).status).toBe(500);
        const next = await postUntilNot503(receiver.url, signed);
        expect(await next.json()).toEqual({ duplicate: true });
        expect(handler.runs).toHaveLength(2);
        expect(handler.successes).toHaveLength(1);
      } finally {
        await receiver.close();
      }
    });

    it('a client disconnect mid-handler abandons the delivery: the retry is processed', async () => {
      const handler = script('block');
      const receiver = await start({ replayStore: storeUnderTest().store }, handler.behave);
      try {
        const signed = tools.sign(freshPayload());
        const abort = new AbortController();
        const first = post(receiver.url, signed, abort.signal).catch((error: unknown) => error);
        await handler.entered(0);
        abort.abort();
        await first;
        const retry = await postUntilNot503(receiver.url, signed);
        expect(retry.status).toBe(200);
        expect(handler.runs).toHaveLength(2);
        handler.release(0); // the first handler finishes late, on a closed connection
        expect(await (await postUntilNot503(receiver.url, signed)).json()).toEqual({ duplicate: true });
      } finally {
        await receiver.close();
      }
    });
  });
}

/** Tools from the packages a test imports (structural types: this folder depends on none of them). */
export function toolsFrom(modules: {
  credentials: { customerId: string; apiKey: string };
  createSignedCallback: (payload: never, credentials: { customerId: string; apiKey: string }) => Signed;
  createClient: (options: { customerId: string; apiKey: string; baseUrl: string }) => {
    messaging: { send(input: { phoneNumber: string; message: string; messageType: 'ARN' }): Promise<{ data: { reference_id: string } }> };
  };
  startEmulator: (options: {
    deliveryDelayMs: number;
    callbacks: { retryDelaysMs: number[] };
    customers: Array<{ customerId: string; apiKey: string; callbackUrl: string }>;
  }) => Promise<{ url: string; close(): Promise<void>; emulator: { idle(): Promise<void>; callbacks: { attempts: ReadonlyArray<{ referenceId: string; status?: number; body: string; headers: Record<string, string> }> } } }>;
}): Tools {
  const { credentials } = modules;
  return {
    sign: (payload) => modules.createSignedCallback(payload as never, credentials),
    async startSender(callbackUrl) {
      const emulator = await modules.startEmulator({ deliveryDelayMs: 5, callbacks: { retryDelaysMs: [20, 20] }, customers: [{ ...credentials, callbackUrl }] });
      const client = modules.createClient({ ...credentials, baseUrl: emulator.url });
      return {
        sendSms: async () => (await client.messaging.send({ phoneNumber: '15555550700', message: 'x', messageType: 'ARN' })).data.reference_id,
        idle: () => emulator.emulator.idle(),
        attempts: (referenceId) => emulator.emulator.callbacks.attempts.filter((a) => a.referenceId === referenceId),
        close: () => emulator.close(),
      };
    },
  };
}
