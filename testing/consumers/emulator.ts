// Compiled against the BUILT declarations (self-imports resolve through "exports") with
// testing/tsconfig.consumer.json: ES2022 and Node's types only, no DOM library, the strictest
// common options. Every public entry, its main types used as a user's project uses them.
// `pnpm typecheck` runs it; skipLibCheck is on, so a name the declarations cannot resolve would
// silently become `any`: the expectTypeOf lines below catch that.
import {
  createEmulator,
  DEFAULT_CUSTOMER,
  EmulatorError,
  FINAL_STATUS,
  STATUS_TEXT,
  TEST_NUMBERS,
  type Customer,
  type Emulator,
  type EmulatorOptions,
  type JournalEntry,
  type OutboxMessage,
  type TransactionView,
} from '@x/emulator';
import { startEmulator, type RunningEmulator, type ServerOptions } from '@x/emulator/node';
import { expectTypeOf } from 'vitest';

declare const env: Record<string, string | undefined>;

const options: EmulatorOptions = {
  customers: [{ ...DEFAULT_CUSTOMER, ...(env.CALLBACK_URL ? { callbackUrl: env.CALLBACK_URL } : {}) }],
  deliveryDelayMs: Number(env.DELAY ?? 1_000),
  maxTransactions: 10_000,
  logger: { error: (message) => console.error(message), warn: (message) => console.warn(message) },
};
const emulator: Emulator = createEmulator(options);

// Under exactOptionalPropertyTypes, a value that may be undefined is "not given".
const fromEnv: EmulatorOptions = {
  customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: env.CALLBACK_URL }],
  journalSize: env.JOURNAL ? Number(env.JOURNAL) : undefined,
  verify: env.VERIFY_TTL ? { expiryMs: Number(env.VERIFY_TTL), maxAttempts: undefined } : undefined,
  callbacks: { fetch: undefined, timeoutMs: undefined },
  mac: undefined,
};
void createEmulator(fromEnv);
const envServerOptions: ServerOptions = { port: env.PORT ? Number(env.PORT) : undefined, hostname: env.HOST, controlToken: env.TOKEN };
void envServerOptions;

// The in-process fetch is Node's fetch: a client can take it as its own.
const asFetch: typeof fetch = emulator.fetch;
void asFetch;
expectTypeOf<Parameters<Emulator['fetch']>[0]>().not.toBeAny();
expectTypeOf<Parameters<Emulator['fetch']>[0]>().toEqualTypeOf<string | URL | Request>();
expectTypeOf<Parameters<Emulator['fetch']>[1]>().not.toBeAny();
expectTypeOf<Parameters<Emulator['fetch']>[1]>().toEqualTypeOf<RequestInit | undefined>();
expectTypeOf(emulator.fetch('http://emulator.test/v1/messaging', { method: 'POST', body: 'x', signal: AbortSignal.timeout(1_000) })).toEqualTypeOf<Promise<Response>>();
expectTypeOf(emulator.app.fetch).returns.toEqualTypeOf<Response | Promise<Response>>();

const message: OutboxMessage | undefined = emulator.outbox.latest('+1 555 555 0100');
expectTypeOf(message?.text).toEqualTypeOf<string | undefined>();
const views: TransactionView[] = emulator.transactions.list({ kind: 'sms' });
expectTypeOf(views[0]?.status.code).toEqualTypeOf<number | undefined>();
const entries: JournalEntry[] = emulator.journal.list({ status: '4xx' });
void entries;
const customer: Customer | undefined = emulator.customers.get(DEFAULT_CUSTOMER.customerId);
void customer;
expectTypeOf(STATUS_TEXT[200]).toEqualTypeOf<string | undefined>();
expectTypeOf(FINAL_STATUS.sms).toEqualTypeOf<readonly number[]>();
void TEST_NUMBERS;
try {
  emulator.transactions.setStatus('0123456789ABCDEF0123456789ABCDEF', 200);
} catch (error) {
  if (error instanceof EmulatorError) expectTypeOf(error.code).toBeString();
}

const serverOptions: ServerOptions = { port: 0, hostname: '127.0.0.1', ...(env.TOKEN ? { controlToken: env.TOKEN } : {}), emulator };
const running: Promise<RunningEmulator> = startEmulator(serverOptions);
expectTypeOf(running).resolves.toHaveProperty('url').toBeString();
