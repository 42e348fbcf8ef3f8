import { createMemoryReplayStore, encodeBase64, verifyRequest, type Credentials, type MacProvider, type ReplayStore } from '@x/auth';
import { Hono, type Context } from 'hono';
import { CallbackSender, type CallbackAttempt, type CallbackOptions } from './callbacks.js';
import { AUTH_CODES, INTERMEDIATE, STATUS_TEXT } from './codes.js';
import { Faults } from './faults.js';
import { outcomeOf } from './numbers.js';
import { phoneIdOf } from './phoneid.js';
import { TransactionStore, type Kind, type Transaction } from './store.js';
import {
  REFERENCE_ID,
  validateMessaging,
  validatePhoneId,
  validateVerify,
  validateVoice,
  type ParamError,
  type Params,
} from './validate.js';

export interface Customer extends Credentials {
  /** Where callbacks go when a request gives no `callback_url`. */
  callbackUrl?: string;
}

export interface EmulatorOptions {
  /** Accounts the emulator accepts. Default: one, `DEFAULT_CUSTOMER`. */
  customers?: Customer[];
  /** From 290 "Message in progress" to the final SMS status. Default 1 000 ms. */
  deliveryDelayMs?: number;
  /** From 103 "Call in progress" to the final call status. Default: deliveryDelayMs. */
  callDelayMs?: number;
  verify?: {
    /** How long a code can be checked. Default 10 minutes. */
    expiryMs?: number;
    /** Submissions allowed; the next one is MAX_ATTEMPTS_EXCEEDED even when right. Default 5. */
    maxAttempts?: number;
  };
  callbacks?: CallbackOptions;
  /** Clock. Default `Date.now`. */
  now?: () => number;
  /** Larger bodies get 413. Default 64 KiB. */
  maxBodyBytes?: number;
  /** How long status can be read. Default 12 hours, as the service. */
  retentionMs?: number;
  /** Most transactions kept; the oldest go first. Default 200 000. */
  maxTransactions?: number;
  /** Accept Basic authentication. Default true. */
  allowBasic?: boolean;
  /** Allowed clock difference of signed requests. Default 15 minutes. */
  clockSkewMs?: number;
  /** Where nonces are claimed. Default: in memory. Share one (e.g. @x/redis) between several emulators. */
  replayStore?: ReplayStore;
  /** HMAC implementation for verifying requests. Default pure; the Node server uses node:crypto. */
  mac?: MacProvider;
}

export interface OutboxMessage {
  referenceId: string;
  customerId: string;
  channel: 'sms' | 'voice';
  product: 'messaging' | 'verify' | 'voice';
  phoneNumber: string;
  /** What reached the phone: the rendered text (the code substituted), or what the call said. */
  text: string;
  messageType?: string;
  senderId?: string;
  /** For verifications: the code that was sent. */
  code?: string;
  at: number;
}

export interface Emulator {
  /** A web-standard fetch: pass it to a client as its `fetch`, in any runtime. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** The Hono app (routes + admin routes), for mounting elsewhere. */
  readonly app: Hono<{ Bindings: EmulatorEnv }>;
  readonly customers: Map<string, Customer>;
  readonly outbox: {
    list(filter?: { phoneNumber?: string; customerId?: string; channel?: 'sms' | 'voice' }): OutboxMessage[];
    latest(phoneNumber: string): OutboxMessage | undefined;
    clear(): void;
  };
  readonly callbacks: { readonly attempts: readonly CallbackAttempt[] };
  readonly faults: Faults;
  readonly transactions: { readonly size: number };
  /** Resolves when scheduled deliveries and their callbacks are done. */
  idle(): Promise<void>;
  /** Forgets transactions, outbox, callbacks, faults and nonces. */
  reset(): void;
  /** Stops timers and callback retries. */
  close(): void;
}

/** Passed by the server adapters; `dropped` is set when a drop fault ate the answer. */
export interface EmulatorEnv {
  dropped?: boolean;
}

const text = (value: string) => new TextEncoder().encode(value);
/** Rejects bytes that are not UTF-8 (one decoder for every request). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The account every emulator accepts unless told otherwise. Not a secret: never use it elsewhere. */
export const DEFAULT_CUSTOMER: Customer = {
  customerId: '00000000-0000-4000-8000-000000000001',
  apiKey: encodeBase64(text('x-emulator-default-key-not-a-secret')),
};

const TEMPLATES: Record<string, string> = {
  'en-US': 'Your code is $$CODE$$',
  'en-GB': 'Your code is $$CODE$$',
  'es-ES': 'Tu código es $$CODE$$',
  'fr-FR': 'Votre code est $$CODE$$',
  'de-DE': 'Ihr Code lautet $$CODE$$',
  'pt-BR': 'Seu código é $$CODE$$',
};

/** RFC 3339 with microseconds, as the service prints `updated_on`. */
const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * The body, or undefined when it is larger than `max`. A declared Content-Length is checked before
 * reading; a chunked body is counted while it streams and abandoned at the limit; a body without
 * either (an in-process Request) is already in memory. Hono's bodyLimit is not used because it
 * touches `request.body`, which makes the Node adapter build a web stream for every request (3x slower).
 */
async function readBody(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get('content-length');
  if (request.headers.has('transfer-encoding') && request.body) {
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
    const out = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
  if (declared !== null && Number(declared) > max) return undefined;
  const bytes = new Uint8Array(await request.arrayBuffer());
  return bytes.length > max ? undefined : bytes;
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
}

function randomDigits(length: number): string {
  const buffer = crypto.getRandomValues(new Uint32Array(length));
  return Array.from(buffer, (n) => String(n % 10)).join('');
}

type Family = 'positive' | 'negative';
type Vars = { customer: Customer; raw: Uint8Array };
type Ctx = Context<{ Bindings: EmulatorEnv; Variables: Vars }>;

export function createEmulator(options: EmulatorOptions = {}): Emulator {
  const now = options.now ?? Date.now;
  const deliveryDelay = options.deliveryDelayMs ?? 1_000;
  const callDelay = options.callDelayMs ?? deliveryDelay;
  const expiryMs = options.verify?.expiryMs ?? 10 * 60_000;
  const maxAttempts = options.verify?.maxAttempts ?? 5;
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  const customers = new Map((options.customers ?? [DEFAULT_CUSTOMER]).map((c) => [c.customerId, c]));
  const store = new TransactionStore(options.retentionMs ?? 12 * 3_600_000, options.maxTransactions ?? 200_000);
  const memoryReplay = createMemoryReplayStore({ now, maxEntries: 200_000 });
  const replay = options.replayStore ?? memoryReplay;
  const sender = new CallbackSender(options.callbacks ?? {}, now);
  const faults = new Faults();
  let outbox: OutboxMessage[] = [];
  /** The last 100 calls of each customer, newest last, for GET /v1/voice. */
  const recentCalls = new Map<string, string[]>();
  const timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  const scheduled = new Set<Promise<void>>();

  const statusOf = (code: number, at: number) => ({ code, description: STATUS_TEXT[code] ?? 'Status', updated_on: timestamp(at) });

  function errorBody(family: Family, code: number, description: string, extra: Record<string, unknown> = {}) {
    const at = now();
    if (family === 'positive') return { ...extra, status: { code, description, updated_on: timestamp(at) } };
    // Authentication failures pair with 501 "Not authorized" (except the auth method, 500); the rest with 500.
    const statusCode = code <= -30000 && code > -40000 && code !== -30008 ? 501 : 500;
    return { ...extra, errors: [{ code, description }], status: statusOf(statusCode, at) };
  }

  const paramError = (family: Family, error: ParamError) =>
    json(400, errorBody(family, family === 'positive' ? error.positive : error.negative, error.description));

  /** The final status once its time has come; `due` when the delivery timer fired (timers can fire a ms early). */
  function settle(tx: Transaction, due = false): Transaction {
    if (INTERMEDIATE.has(tx.status.code) && (due || now() >= tx.settlesAt)) tx.status = { code: tx.finalCode, updatedAt: tx.settlesAt };
    return tx;
  }

  function callbackPayload(tx: Transaction) {
    const payload: Record<string, unknown> = {
      reference_id: tx.referenceId,
      status: statusOf(tx.status.code, tx.status.updatedAt),
      submit_timestamp: timestamp(tx.createdAt),
      errors: [],
      sub_resource: tx.kind === 'voice' ? 'voice' : 'sms',
    };
    if (tx.externalId !== undefined) payload.external_id = tx.externalId;
    if (tx.kind === 'verify') payload.verify = { code_state: tx.verify!.state, code_entered: null };
    if (tx.kind === 'voice') payload.voice = { user_input: null, caller_id: tx.voice!.callerId };
    else payload.additional_info = { message_parts_count: 1 };
    return payload;
  }

  /** Final status after the delay; a callback when the customer or the request gave a URL. */
  function schedule(tx: Transaction, customer: Customer) {
    const url = tx.callbackUrl ?? customer.callbackUrl;
    if (!url) return;
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        sender.send(url, callbackPayload(settle(tx, true)), customer, tx.referenceId);
        resolve();
      }, Math.max(0, tx.settlesAt - now()));
      (timer as { unref?: () => void }).unref?.();
      timers.set(timer, resolve);
    }).finally(() => scheduled.delete(done));
    scheduled.add(done);
  }

  function createTransaction(kind: Kind, customer: Customer, p: Params): Transaction {
    const at = now();
    const outcome = outcomeOf(p.phone_number!);
    const initial = kind === 'voice' ? 103 : 290;
    const tx: Transaction = {
      kind,
      referenceId: randomHex(16),
      customerId: customer.customerId,
      phoneNumber: p.phone_number!,
      createdAt: at,
      settlesAt: at + (kind === 'voice' ? callDelay : deliveryDelay),
      status: { code: initial, updatedAt: at },
      finalCode: kind === 'voice' ? outcome.voice : outcome.sms,
    };
    if (p.external_id !== undefined) tx.externalId = p.external_id;
    if (p.callback_url !== undefined) tx.callbackUrl = p.callback_url;
    store.add(tx, at);
    schedule(tx, customer);
    return tx;
  }

  function send(message: Omit<OutboxMessage, 'at'>) {
    outbox.push({ ...message, at: now() });
    if (outbox.length > 10_000) outbox = outbox.slice(-5_000);
  }

  /** PhoneID add-ons of a JSON body: objects, kept beside the string parameters. */
  const jsonAddons = new WeakMap<Params, Record<string, unknown>>();

  async function params(c: Ctx): Promise<Params | Response> {
    const raw = c.get('raw');
    const family: Family = c.req.path.startsWith('/v1/verify') ? 'negative' : 'positive';
    let body: string;
    try {
      body = strictUtf8.decode(raw);
    } catch {
      return json(400, errorBody(family, family === 'positive' ? 11000 : -40006, 'Bad request: the body is not valid UTF-8.'));
    }
    const out: Params = {};
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    if (type.startsWith('application/json')) {
      let value: unknown;
      try {
        value = body === '' ? {} : JSON.parse(body);
      } catch {
        return json(400, errorBody(family, -40006, 'Bad request: the body is not valid JSON.'));
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return json(400, errorBody(family, -40006, 'Bad request: the JSON body must be an object.'));
      for (const [k, v] of Object.entries(value)) if (v !== null && typeof v !== 'object') out[k] = String(v);
      const addons = (value as { addons?: unknown }).addons;
      if (addons && typeof addons === 'object') jsonAddons.set(out, addons as Record<string, unknown>);
    } else {
      for (const [k, v] of new URLSearchParams(body)) if (!(k in out)) out[k] = v;
    }
    return out;
  }

  /** The parameters of a POST, validated: or the 400 to answer. */
  async function validated(c: Ctx, validate: (p: Params) => ParamError | undefined, family: Family): Promise<{ p: Params; customer: Customer } | Response> {
    const p = await params(c);
    if (p instanceof Response) return p;
    const error = validate(p);
    return error ? paramError(family, error) : { p, customer: c.get('customer') };
  }

  const app = new Hono<{ Bindings: EmulatorEnv; Variables: Vars }>();

  // Faults and authentication for every service route.
  app.use('/v1/*', async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    const family: Family = path.startsWith('/v1/verify') ? 'negative' : 'positive';
    const latency = faults.take('latency', method, path);
    if (latency) await new Promise((resolve) => setTimeout(resolve, latency.ms));
    const status = faults.take('status', method, path);
    if (status) {
      const code = status.status === 429 ? (family === 'positive' ? 10019 : -40007) : family === 'positive' ? 500 : -90001;
      const description = status.status === 429 ? 'Rate Limit Exceeded' : 'System Unavailable, please try again later';
      const headers: Record<string, string> = status.retryAfterSeconds !== undefined ? { 'retry-after': String(status.retryAfterSeconds) } : {};
      return json(status.status, errorBody(family, code, description), headers);
    }

    let raw: Uint8Array | undefined;
    try {
      raw = await readBody(c.req.raw, maxBody);
    } catch {
      return json(400, errorBody(family, -40006, 'Bad request: the body could not be read.'));
    }
    if (!raw) return json(413, errorBody(family, -40006, `Payload too large: at most ${maxBody} bytes.`));

    const url = new URL(c.req.url);
    const result = await verifyRequest(
      { method, url: url.pathname, headers: c.req.raw.headers, body: raw.length ? raw : undefined },
      { credentials: (id) => customers.get(id), now, replayStore: replay, allowBasic: options.allowBasic ?? true, clockSkewMs: options.clockSkewMs, mac: options.mac },
    );
    if (!result.ok) {
      const codes = AUTH_CODES[result.reason];
      const extra = result.stringToSign !== undefined ? { signature_string: result.stringToSign } : {};
      return json(401, errorBody(family, family === 'positive' ? codes.positive : codes.negative, codes.text, extra));
    }
    c.set('customer', customers.get(result.customerId)!);
    c.set('raw', raw);
    await next();
    if (faults.take('drop', method, path)) c.env.dropped = true;
  });

  app.post('/v1/messaging', async (c) => {
    const input = await validated(c, validateMessaging, 'positive');
    if (input instanceof Response) return input;
    const { p, customer } = input;
    const tx = createTransaction('sms', customer, p);
    send({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'sms', product: 'messaging', phoneNumber: tx.phoneNumber, text: p.message!, messageType: p.message_type!, ...(p.sender_id ? { senderId: p.sender_id } : {}) });
    return json(200, { reference_id: tx.referenceId, external_id: tx.externalId ?? null, status: statusOf(tx.status.code, tx.status.updatedAt) });
  });

  const lookup = (c: Ctx, kind: Kind, family: Family): Transaction | Response => {
    const id = c.req.param('id') ?? '';
    if (!REFERENCE_ID.test(id)) {
      return json(400, errorBody(family, family === 'positive' ? 11011 : -10001, family === 'positive' ? 'Invalid value for parameter reference_id.' : `Invalid Request: ReferenceID Parameter: ${id.slice(0, 64)}`));
    }
    const tx = store.get(id, c.get('customer').customerId, now());
    if (!tx || tx.kind !== kind) {
      return json(404, errorBody(family, family === 'positive' ? 10017 : -10001, family === 'positive' ? 'Customer ID / Reference ID not found.' : 'CustomerID/ReferenceID not found'));
    }
    return settle(tx);
  };

  app.get('/v1/messaging/:id', (c) => {
    const tx = lookup(c, 'sms', 'positive');
    if (tx instanceof Response) return tx;
    return json(200, { reference_id: tx.referenceId, external_id: tx.externalId ?? null, status: statusOf(tx.status.code, tx.status.updatedAt), additional_info: { message_parts_count: 1 } });
  });

  const phoneId = async (c: Ctx, fromPath: string | undefined) => {
    const input = await validated(c, (p) => validatePhoneId(fromPath === undefined ? p : Object.assign(p, { phone_number: fromPath })), 'positive');
    if (input instanceof Response) return input;
    const { p } = input;
    const { body, partial } = phoneIdOf(p.phone_number!, jsonAddons.get(p));
    return json(200, { reference_id: randomHex(16), external_id: p.external_id ?? null, status: statusOf(partial ? 301 : 300, now()), ...body });
  };
  app.post('/v1/phoneid/:phone', (c) => {
    let phone: string;
    try {
      phone = decodeURIComponent(c.req.param('phone'));
    } catch {
      return paramError('positive', { positive: 11000, negative: -10001, description: 'Invalid value for parameter phone_number.' });
    }
    return phoneId(c, phone);
  });
  app.post('/v1/phoneid', (c) => phoneId(c, undefined));

  app.post('/v1/verify/sms', async (c) => {
    const input = await validated(c, validateVerify, 'negative');
    if (input instanceof Response) return input;
    const { p, customer } = input;
    const code = p.verify_code ?? randomDigits(7);
    const template = p.template ?? TEMPLATES[p.language ?? 'en-US'] ?? TEMPLATES['en-US']!;
    const tx = createTransaction('verify', customer, p);
    tx.verify = { code, state: 'UNKNOWN', entered: '', attempts: 0 };
    send({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'sms', product: 'verify', phoneNumber: tx.phoneNumber, text: template.split('$$CODE$$').join(code), code, ...(p.sender_id ? { senderId: p.sender_id } : {}) });
    return json(200, {
      reference_id: tx.referenceId,
      resource_uri: `/v1/verify/${tx.referenceId}`,
      sub_resource: 'sms',
      errors: [],
      status: statusOf(tx.status.code, tx.status.updatedAt),
      verify: { code_state: 'UNKNOWN', code_entered: '' },
    });
  });

  // Without this, GET /v1/verify/sms would be read as a status request for reference id "sms".
  app.get('/v1/verify/sms', () => json(405, errorBody('negative', -40005, 'Method Not Allowed'), { allow: 'POST' }));

  app.get('/v1/verify/:id', (c) => {
    const tx = lookup(c, 'verify', 'negative');
    if (tx instanceof Response) return tx;
    const entered = c.req.query('verify_code');
    const v = tx.verify!;
    if (entered !== undefined && v.state !== 'VALID') {
      if (!/^\d{1,10}$/.test(entered)) return json(400, errorBody('negative', -10001, `Invalid Request: verify_code Parameter: ${entered.slice(0, 16)}`, { reference_id: tx.referenceId }));
      v.attempts++;
      v.entered = entered;
      if (now() > tx.createdAt + expiryMs) v.state = 'EXPIRED';
      else if (v.attempts > maxAttempts) v.state = 'MAX_ATTEMPTS_EXCEEDED';
      else v.state = entered === v.code ? 'VALID' : 'INVALID';
    }
    return json(200, {
      reference_id: tx.referenceId,
      sub_resource: 'sms',
      errors: [],
      status: statusOf(tx.status.code, tx.status.updatedAt),
      verify: { code_state: v.state, code_entered: v.entered },
    });
  });

  const voiceBody = (tx: Transaction) => ({
    reference_id: tx.referenceId,
    external_id: tx.externalId ?? null,
    status: statusOf(tx.status.code, tx.status.updatedAt),
    voice: { user_input: null, caller_id: tx.voice!.callerId },
  });

  app.post('/v1/voice', async (c) => {
    const input = await validated(c, validateVoice, 'positive');
    if (input instanceof Response) return input;
    const { p, customer } = input;
    const tx = createTransaction('voice', customer, p);
    tx.voice = { callerId: p.caller_id ?? null };
    const recent = recentCalls.get(customer.customerId) ?? [];
    recent.push(tx.referenceId);
    if (recent.length > 100) recent.shift();
    recentCalls.set(customer.customerId, recent);
    send({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'voice', product: 'voice', phoneNumber: tx.phoneNumber, text: p.message!, messageType: p.message_type! });
    return json(200, voiceBody(tx));
  });
  // The interface lists GET on /v1/voice; with no reference id it lists this customer's recent calls.
  app.get('/v1/voice', (c) => {
    const id = c.get('customer').customerId;
    const calls = (recentCalls.get(id) ?? []).map((ref) => store.get(ref, id, now())).filter((tx) => tx !== undefined).reverse();
    return json(200, { calls: calls.map((tx) => voiceBody(settle(tx))) });
  });
  app.get('/v1/voice/:id', (c) => {
    const tx = lookup(c, 'voice', 'positive');
    return tx instanceof Response ? tx : json(200, voiceBody(tx));
  });

  // 405 with the methods each resource supports.
  const allow: Array<[string, string]> = [
    ['/v1/messaging', 'POST'], ['/v1/messaging/:id', 'GET'], ['/v1/phoneid', 'POST'], ['/v1/phoneid/:phone', 'POST'],
    ['/v1/verify/sms', 'POST'], ['/v1/verify/:id', 'GET'], ['/v1/voice', 'POST, GET'], ['/v1/voice/:id', 'GET'],
  ];
  for (const [path, methods] of allow) {
    app.all(path, () => {
      const family: Family = path.startsWith('/v1/verify') ? 'negative' : 'positive';
      return json(405, errorBody(family, -40005, 'Method Not Allowed'), { allow: methods });
    });
  }

  // Emulator-only routes, no authentication: the phone's view and the test controls.
  app.get('/_emulator/outbox', (c) => {
    const phone = c.req.query('phone_number');
    return json(200, { messages: phone ? outbox.filter((m) => m.phoneNumber === phone) : outbox });
  });
  app.get('/_emulator/callbacks', () => json(200, { attempts: sender.attempts }));
  app.get('/_emulator/faults', () => json(200, { faults: faults.list() }));
  app.post('/_emulator/faults', async (c) => {
    try {
      const rule = (await c.req.json()) as Parameters<Faults['add']>[0];
      if (!['latency', 'status', 'drop'].includes(rule?.type)) throw new Error('type must be latency, status or drop');
      faults.add(rule);
      return json(201, { faults: faults.list() });
    } catch (error) {
      return json(400, { error: error instanceof Error ? error.message : 'invalid fault' });
    }
  });
  app.delete('/_emulator/faults', () => {
    faults.clear();
    return json(200, { faults: [] });
  });
  app.post('/_emulator/reset', () => {
    reset();
    return json(200, { reset: true });
  });

  app.notFound((c) => json(404, errorBody(c.req.path.startsWith('/v1/verify') ? 'negative' : 'positive', -40004, 'Resource Not Found')));
  app.onError(() => json(500, errorBody('positive', 500, 'Transaction not attempted')));

  function reset() {
    store.clear();
    recentCalls.clear();
    memoryReplay.clear();
    outbox = [];
    sender.attempts.length = 0;
    faults.clear();
  }

  return {
    app: app as unknown as Hono<{ Bindings: EmulatorEnv }>,
    async fetch(input, init) {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      const env: EmulatorEnv = {};
      const response = await app.fetch(request, env);
      if (env.dropped) throw new TypeError('fetch failed: the emulator dropped the connection (fault injection)');
      return response;
    },
    customers,
    outbox: {
      list: (filter = {}) => outbox.filter((m) => (!filter.phoneNumber || m.phoneNumber === filter.phoneNumber) && (!filter.customerId || m.customerId === filter.customerId) && (!filter.channel || m.channel === filter.channel)),
      latest: (phoneNumber) => [...outbox].reverse().find((m) => m.phoneNumber === phoneNumber),
      clear: () => {
        outbox = [];
      },
    },
    callbacks: sender,
    faults,
    transactions: store,
    async idle() {
      while (scheduled.size) await Promise.all([...scheduled]);
      await sender.idle();
    },
    reset,
    close() {
      for (const [timer, resolve] of timers) {
        clearTimeout(timer);
        resolve();
      }
      timers.clear();
      sender.close();
    },
  };
}
