// Configuration from the environment, against a real server on 127.0.0.1 that verifies the
// signature with the account it expects: process.env (set here, restored after each test), an
// environment record (a worker's bindings), Deno's permission refusal, and explicit options winning.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createClient, ENV_VARIABLES, fromEnv, type LogFields } from '../src/index.js';
import { freePort } from '../../../testing/support.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

const fromEnvironment = { customerId: 'AAAAAAAA-1111-2222-3333-444444444444', apiKey: Buffer.from('the key from the environment').toString('base64') };
const explicit = { customerId: 'BBBBBBBB-1111-2222-3333-444444444444', apiKey: Buffer.from('the explicit key').toString('base64') };
const NAMES = ['X_CUSTOMER_ID', 'X_API_KEY', 'X_BASE_URL', 'X_LOG_LEVEL'] as const;

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([fromEnvironment, explicit]);
});
afterAll(() => server.close());

const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
afterEach(() => {
  server.reset();
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  delete (globalThis as { Deno?: unknown }).Deno;
});

function setEnv(values: Partial<Record<(typeof NAMES)[number], string>>): void {
  for (const name of NAMES) delete process.env[name];
  Object.assign(process.env, values);
}

const sendOne = (client: ReturnType<typeof createClient>) => client.messaging.send({ phoneNumber: '15555550100', message: 'hello', messageType: 'ARN' });

/** The error createClient throws, or a failure when it does not throw. */
function thrownBy(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected createClient to throw');
}

describe('createClient() from process.env', () => {
  it('reads X_CUSTOMER_ID, X_API_KEY and X_BASE_URL: the request is signed with that account and goes there', async () => {
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: server.url });
    await sendOne(createClient());
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: fromEnvironment.customerId });
  });

  it('trims values and treats an empty variable as unset', async () => {
    setEnv({ X_CUSTOMER_ID: ` ${fromEnvironment.customerId}\n`, X_API_KEY: `${fromEnvironment.apiKey} `, X_BASE_URL: `${server.url}\n` });
    await sendOne(createClient({ retry: false }));
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: fromEnvironment.customerId });
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: '  ' });
    expect(thrownBy(() => createClient()).message).toMatch(/X_API_KEY is not set/);
  });

  it('explicit options win over every variable', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: dead, X_LOG_LEVEL: 'debug' });
    const lines: string[] = [];
    const record = (_fields: LogFields, message: string) => lines.push(message);
    const logger = { error: record, warn: record, info: record, debug: record };
    await sendOne(createClient({ ...explicit, baseUrl: server.url, logLevel: 'off', logger }));
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: explicit.customerId });
    expect(lines).toEqual([]);
  });

  it('takes customerId and apiKey as a pair: one given, the other is not taken from the environment', () => {
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey });
    const error = thrownBy(() => createClient({ customerId: explicit.customerId, baseUrl: server.url }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/got customerId but no apiKey/);
    expect(error.message).toContain('X_API_KEY');
    expect(thrownBy(() => createClient({ apiKey: explicit.apiKey })).message).toMatch(/got apiKey but no customerId.*X_CUSTOMER_ID is not set/);
  });

  it('says which variable is missing', () => {
    setEnv({});
    const neither = thrownBy(() => createClient());
    expect(neither).toBeInstanceOf(ConfigurationError);
    expect(neither.message).toContain('X_CUSTOMER_ID and X_API_KEY are not set');
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId });
    const noKey = thrownBy(() => createClient());
    expect(noKey.message).toContain('X_API_KEY is not set');
    expect(noKey.message).not.toContain('X_CUSTOMER_ID is not set');
    setEnv({ X_API_KEY: fromEnvironment.apiKey });
    expect(thrownBy(() => createClient()).message).toContain('X_CUSTOMER_ID is not set');
  });

  it('names the variable of a bad value, and never echoes a key', () => {
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_LOG_LEVEL: 'verbose' });
    expect(thrownBy(() => createClient()).message).toMatch(/^X_LOG_LEVEL must be one of off, error, warn, info, debug/);
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: 'rest-api.example' });
    expect(thrownBy(() => createClient()).message).toMatch(/^X_BASE_URL: baseUrl must be an absolute URL/);
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: 'not base64 at all!' });
    const bad = thrownBy(() => createClient());
    expect(bad).toBeInstanceOf(ConfigurationError);
    expect(bad.message).not.toContain('not base64 at all!');
  });

  it('X_LOG_LEVEL switches logging on (to the console when no logger is given)', async () => {
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: server.url, X_LOG_LEVEL: 'INFO' });
    const printed: unknown[][] = [];
    const original = console.info;
    console.info = (...data: unknown[]) => void printed.push(data);
    try {
      await sendOne(createClient());
    } finally {
      console.info = original;
    }
    expect(printed).toHaveLength(1);
    expect(printed[0]).toEqual([expect.stringMatching(/^@x\/client POST \/v1\/messaging -> 200 \(service 200\), attempt 1, \d+ ms$/)]);
  });
});

describe('fromEnv(record): a worker passes its bindings', () => {
  it('maps the documented variables to options', () => {
    expect(ENV_VARIABLES).toEqual({ customerId: 'X_CUSTOMER_ID', apiKey: 'X_API_KEY', baseUrl: 'X_BASE_URL', logLevel: 'X_LOG_LEVEL' });
    expect(fromEnv({ X_CUSTOMER_ID: 'id', X_API_KEY: 'key', X_BASE_URL: 'https://api.example/', X_LOG_LEVEL: 'Warn', OTHER: 'x' })).toEqual({ customerId: 'id', apiKey: 'key', baseUrl: 'https://api.example/', logLevel: 'warn' });
    expect(fromEnv({ X_CUSTOMER_ID: '', X_API_KEY: undefined, X_BASE_URL: 42 })).toEqual({});
  });

  it('configures a client without any global environment', async () => {
    setEnv({});
    const env = { X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: server.url };
    await sendOne(createClient({ ...fromEnv(env), retry: false }));
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: fromEnvironment.customerId });
  });

  it('names the binding that is missing', () => {
    setEnv({});
    const error = thrownBy(() => createClient({ ...fromEnv({ X_CUSTOMER_ID: fromEnvironment.customerId }) }));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('X_API_KEY is not set');
    expect(() => fromEnv({ X_LOG_LEVEL: 'loud' })).toThrow(/X_LOG_LEVEL/);
    expect(() => fromEnv(undefined as never)).toThrow(ConfigurationError);
  });
});

describe('Deno without --allow-env', () => {
  // Deno's own API, as Deno 2 behaves without the permission: the state is "prompt" and get throws.
  function denoWithout(granted: string[], values: Record<string, string>) {
    (globalThis as { Deno?: unknown }).Deno = {
      env: {
        get(name: string) {
          if (!granted.includes(name)) throw Object.assign(new Error(`Requires env access to "${name}", run again with the --allow-env flag`), { name: 'NotCapable' });
          return values[name];
        },
      },
      permissions: { querySync: ({ variable }: { variable: string }) => ({ state: granted.includes(variable) ? 'granted' : 'prompt' }) },
    };
  }

  it('says that Deno refused and how to allow it, without prompting', () => {
    setEnv({ X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey });
    denoWithout([], {});
    const error = thrownBy(() => createClient());
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toContain('Deno refused to read X_CUSTOMER_ID, X_API_KEY: run with --allow-env=X_CUSTOMER_ID,X_API_KEY,X_BASE_URL,X_LOG_LEVEL');
  });

  it('explicit credentials need no permission: the optional variables are skipped', async () => {
    denoWithout([], {});
    await sendOne(createClient({ ...explicit, baseUrl: server.url, retry: false }));
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: explicit.customerId });
  });

  it('reads what it is allowed to', async () => {
    denoWithout(['X_CUSTOMER_ID', 'X_API_KEY', 'X_BASE_URL'], { X_CUSTOMER_ID: fromEnvironment.customerId, X_API_KEY: fromEnvironment.apiKey, X_BASE_URL: server.url });
    await sendOne(createClient({ retry: false }));
    expect(server.requests[0]!.auth).toMatchObject({ ok: true, customerId: fromEnvironment.customerId });
  });
});

describe('a runtime without environment variables', () => {
  it('points a worker at fromEnv', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    let error: Error;
    try {
      error = thrownBy(() => createClient());
    } finally {
      Object.defineProperty(globalThis, 'process', original);
    }
    expect(error.message).toContain('this runtime has no environment variables (in a worker, pass its bindings: createClient({ ...fromEnv(env) }))');
  });
});
