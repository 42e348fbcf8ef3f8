// Item 7: GET /_emulator/openapi.json. The document is validated with a maintained OpenAPI 3.1
// validator (@seriousme/openapi-schema-validator), every example in it is checked against its
// schema, and the emulator's real answers of every route (success and errors) against the schema
// of that route and status (JSON Schema 2020-12, ajv).
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call, customer } from './helpers.js';

type Json = Record<string, unknown>;
const DOC_ID = 'https://x-emulator.invalid/openapi.json';

let server: RunningEmulator;
let receiver: Server;
let doc: Json;
let ajv: Ajv2020;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
  server = await startEmulator({ customers: [{ ...customer, callbackUrl }], deliveryDelayMs: 0 });
  const response = await fetch(`${server.url}/_emulator/openapi.json`);
  expect(response.status).toBe(200);
  doc = (await response.json()) as Json;
  ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: DOC_ID });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A JSON pointer into the document, escaped. */
const pointer = (...parts: string[]) => `${DOC_ID}#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

function check(schemaPointer: string, value: unknown): string[] {
  const validate = ajv.getSchema(schemaPointer) ?? ajv.compile({ $ref: schemaPointer });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ path, method })));

describe('the document', () => {
  it('is valid OpenAPI 3.1 (maintained validator), and every $ref resolves', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    const refs: string[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(40);
    for (const r of new Set(refs)) {
      let at: unknown = doc;
      for (const part of r.replace(/^#\//, '').split('/')) at = (at as Json)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
      expect(at, r).toBeDefined();
    }
  });

  it('every example (answers and request bodies) satisfies its schema', () => {
    let checked = 0;
    for (const { path, method } of operations()) {
      const op = (doc.paths as Json)[path] as Record<string, Json>;
      const responses = op[method]!.responses as Record<string, { content?: Record<string, { example?: unknown }> }>;
      for (const [status, response] of Object.entries(responses)) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(media.example, `${method} ${path} ${status} ${type} has an example`).toBeDefined();
          expect(check(pointer('paths', path, method, 'responses', status, 'content', type, 'schema'), media.example), `${method.toUpperCase()} ${path} ${status}`).toEqual([]);
          checked++;
        }
      }
      const body = op[method]!.requestBody as { content: Record<string, { example?: unknown }> } | undefined;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        if (media.example === undefined) continue;
        expect(check(pointer('paths', path, method, 'requestBody', 'content', type, 'schema'), media.example), `${method.toUpperCase()} ${path} request`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(60);
  });

  it('a wrong example would be caught (the check can fail)', () => {
    expect(check(pointer('components', 'schemas', 'MessagingAnswer'), { reference_id: 'nope', status: { code: 290 } }).length).toBeGreaterThan(0);
    expect(check(pointer('components', 'schemas', 'JournalEntry'), { seq: 1, at: 0, method: 'GET', path: '/', scheme: 'digest', verdict: 'ok', status: 200, ms: 1, apiKey: 'x' }).length).toBeGreaterThan(0);
  });
});

describe('the emulator\'s real answers match the document', () => {
  const covered = new Set<string>();

  /** Finds the documented operation of a request (exact paths before templates). */
  function operationOf(method: string, path: string): { template: string; op: Json } {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const candidates = Object.keys(paths)
      .filter((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path) && paths[template]![method.toLowerCase()])
      .sort((a, b) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length);
    expect(candidates, `${method} ${path} is documented`).not.toHaveLength(0);
    return { template: candidates[0]!, op: paths[candidates[0]!]![method.toLowerCase()]! };
  }

  async function answers(method: string, path: string, response: { status: number; headers: Headers; text: string }) {
    const { template, op } = operationOf(method, path);
    const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
    const status = String(response.status) in responses ? String(response.status) : 'default';
    expect(responses[status], `${method} ${path} answered ${response.status}, which is not documented`).toBeDefined();
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!;
    expect(Object.keys(responses[status]!.content ?? {}), `${method} ${path} ${response.status} content type`).toContain(type);
    if (type === 'application/json') {
      expect(check(pointer('paths', template, method.toLowerCase(), 'responses', status, 'content', type, 'schema'), JSON.parse(response.text)), `${method} ${path} ${response.status}: ${response.text.slice(0, 300)}`).toEqual([]);
    }
    covered.add(`${method.toLowerCase()} ${template}`);
  }

  /** A signed service request, its answer checked. */
  async function service(method: string, path: string, init: Parameters<typeof call>[3] = {}, expected = 200) {
    const r = await call(server.url, method, path, init);
    expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBe(expected);
    await answers(method, path.split('?')[0]!, { status: r.status, headers: r.headers, text: r.text });
    return r.body as Json;
  }

  /** A control request, its answer checked. */
  async function control(method: string, path: string, body?: unknown, expected = 200, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    expect(response.status, `${method} ${path}`).toBe(expected);
    const text = response.headers.get('content-type')?.startsWith('text/event-stream') ? (await response.body!.cancel(), '') : await response.text();
    await answers(method, path.split('?')[0]!, { status: response.status, headers: response.headers, text });
    return text && response.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as Json) : {};
  }

  it('service routes: successes and errors of every operation', async () => {
    const sms = { phone_number: '15555550100', message: 'hello', message_type: 'ARN' };
    const sent = await service('POST', '/v1/messaging', { form: sms });
    await service('GET', `/v1/messaging/${sent.reference_id}`);
    await service('GET', `/v1/messaging/${'A'.repeat(32)}`, {}, 404);
    await service('POST', '/v1/messaging', { form: { ...sms, message_type: 'NOPE' } }, 400);
    await service('POST', '/v1/messaging', { form: sms, credentials: { customerId: customer.customerId, apiKey: btoa('wrong') } }, 401);
    await service('POST', '/v1/phoneid', { json: { phone_number: '15555550100', addons: { contact: {}, sim_swap: {} } } });
    await service('POST', '/v1/phoneid/15555550004', { form: {} });
    await service('GET', '/v1/phoneid/standard/15555550100');
    await service('GET', '/v1/phoneid/live/15555550100');
    await service('GET', '/v1/phoneid/live/442071234567');
    await service('GET', '/v1/phoneid/number_deactivation/15555550008?ucid=ATCK');
    await service('GET', '/v1/phoneid/number_deactivation/15555550008', {}, 400);
    const verify = await service('POST', '/v1/verify/sms', { form: { phone_number: '15555550101', verify_code: '12345' } });
    await service('GET', `/v1/verify/${verify.reference_id}?verify_code=12345`);
    await service('PUT', `/v1/verify/completion/${verify.reference_id}`, { emptyForm: true } as never);
    await service('POST', '/v1/verify/call', { form: { phone_number: '15555550007', call_forward_action: 'block' } });
    await service('POST', '/v1/verify/bulk_sms', { form: { recipients: '15555550100:a,15555550102', template: 'x' } });
    await service('GET', `/v1/verify/${'B'.repeat(32)}`, {}, 404);
    await service('POST', '/v1/verify/sms', { form: { phone_number: 'x' } }, 400);
    const call1 = await service('POST', '/v1/voice', { form: sms });
    await service('GET', '/v1/voice');
    await service('GET', `/v1/voice/${call1.reference_id}`);
    await service('POST', '/v1/score/15555550002', { form: { account_lifecycle_event: 'create' } });
    await service('POST', '/intelligence/phone', { form: { phone_number: '15555550100', account_lifecycle_event: 'sign-in' } });
    await service('POST', '/intelligence', { json: { phone_number: '15555550100', account_lifecycle_event: 'sign-in' } });
    await service('POST', '/intelligence/email', { form: { email_address: 'Sam+news@Disposable.Example', account_lifecycle_event: 'create', phone_number: '15555550100' } });
    await service('POST', '/intelligence/email', { form: { account_lifecycle_event: 'create' } }, 400);
    const created = await service('POST', '/verification', { json: { recipient: { phone_number: '15555550100', email: 'sam@example.com' }, verification_policy: [{ method: 'sms' }, { method: 'email', fallback_time: 30 }], external_id: 'order-7' } });
    await service('GET', `/verification/${created.reference_id}`);
    await service('PATCH', `/verification/${created.reference_id}/state`, { json: { action: 'finalize', security_factor: '000' } });
    await service('POST', '/verification', { json: { recipient: {} } }, 400);
    server.emulator.faults.add({ type: 'status', status: 503, path: '/verification' });
    await service('GET', `/verification/${created.reference_id}`, {}, 503);
    server.emulator.faults.add({ type: 'status', status: 429, path: '/v1/verify' });
    await service('POST', '/v1/verify/sms', { form: { phone_number: '15555550101' } }, 429);
    await server.emulator.idle();
  });

  it('control routes: every operation, with its errors', async () => {
    await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550110', message: 'hello', message_type: 'ARN' } });
    await server.emulator.idle();
    await control('GET', '/_emulator/journal?limit=5');
    await control('GET', '/_emulator/journal?limit=5000', undefined, 400);
    await control('GET', `/_emulator/outbox?phone_number=${encodeURIComponent('+1 555 555 0110')}`);
    await control('GET', '/_emulator/outbox?channel=fax', undefined, 400);
    const { attempts } = (await control('GET', '/_emulator/callbacks')) as { attempts: Array<{ id: number }> };
    expect(attempts.length).toBeGreaterThan(0);
    await control('GET', `/_emulator/callbacks/${attempts[0]!.id}/raw`);
    await control('GET', '/_emulator/callbacks/99999/raw', undefined, 404);
    await control('POST', `/_emulator/callbacks/${attempts[0]!.id}/resend`, undefined, 202);
    await control('POST', '/_emulator/callbacks/99999/resend', undefined, 404);
    const { transactions } = (await control('GET', '/_emulator/transactions?kind=sms')) as { transactions: Array<{ referenceId: string }> };
    const ref = transactions[0]!.referenceId;
    await control('GET', `/_emulator/transactions/${ref}`);
    await control('GET', `/_emulator/transactions/${'C'.repeat(32)}`, undefined, 404);
    await control('POST', `/_emulator/transactions/${ref}/status`, { code: 207 });
    await control('POST', `/_emulator/transactions/${ref}/status`, { code: 103 }, 400);
    await control('POST', `/_emulator/transactions/${'C'.repeat(32)}/status`, { code: 200 }, 404);
    await control('GET', '/_emulator/clock');
    await control('POST', '/_emulator/clock/advance', { ms: 1000 });
    await control('POST', '/_emulator/clock/advance', { ms: 0 }, 400);
    await control('POST', '/_emulator/faults', { type: 'latency', ms: 10, times: 2, path: '/nowhere', probability: 0.5 }, 201);
    await control('POST', '/_emulator/faults', { type: 'html', status: 418 }, 400);
    await control('GET', '/_emulator/faults');
    await control('DELETE', '/_emulator/faults/0');
    await control('DELETE', '/_emulator/faults/0', undefined, 404);
    await control('DELETE', '/_emulator/faults');
    await control('POST', '/_emulator/faults', { type: 'callback', chaos: 'late', delayMs: 1000, phoneNumber: '+1 555', product: 'messaging' }, 201);
    await control('POST', '/_emulator/faults', { type: 'callback', chaos: 'reorder', copies: 2 }, 400);
    await control('DELETE', '/_emulator/faults');
    await control('POST', '/_emulator/numbers', { number: '15555550100', steps: [{ sms: 'undeliverable' }, { call: 'busy', delayMs: 10 }, { phoneid: { type: 'VOIP', risk: 700 } }] }, 201);
    await control('POST', '/_emulator/numbers', { prefix: '1555', steps: [{ sms: 'lost' }] }, 400);
    await control('PUT', '/_emulator/numbers', { numbers: [{ prefix: '1555', steps: [{ sms: 200, delayMs: 5 }] }] });
    await control('GET', '/_emulator/numbers');
    await control('DELETE', '/_emulator/numbers');
    const saved = await control('GET', '/_emulator/snapshot');
    await control('PUT', '/_emulator/snapshot', saved);
    await control('PUT', '/_emulator/snapshot', { format: 'other' }, 400);
    await control('POST', '/_emulator/inbound', { from: '15555550100', to: '15555559999', text: 'STOP' }, 202);
    await control('POST', '/_emulator/inbound', { from: 'x', to: '15555559999', text: 'STOP' }, 400);
    await control('GET', '/_emulator/events');
    await control('GET', '/_emulator/openapi.json');
    // The inspector's page, at / and /_emulator/inspector: HTML, documented like the JSON routes.
    await control('GET', '/');
    await control('GET', '/_emulator/inspector');
    await control('GET', '/_emulator/inspector', undefined, 403, { origin: 'https://evil.example' });
    await control('GET', '/_emulator/clock', undefined, 403, { origin: 'https://evil.example' });
    await control('POST', '/_emulator/reset');
    await server.emulator.idle();
  });

  it('callback attempts in every shape the control routes and the events show them: refused (cause, address, next attempt), chaos, re-sent, restored', async () => {
    // Every event is checked against the schema of its data (the event stream sends the same objects).
    const EVENT_SCHEMAS: Record<string, string | undefined> = { journal: 'JournalEntry', outbox: 'OutboxMessage', callback: 'CallbackAttempt', transaction: 'Transaction', faults: 'FaultList', numbers: undefined, clock: 'Clock', reset: undefined };
    const problems: string[] = [];
    const stop = server.emulator.events.subscribe((event) => {
      const name = EVENT_SCHEMAS[event.type];
      if (name) problems.push(...check(pointer('components', 'schemas', name), event.data).map((p) => `${event.type}: ${p}`));
    });
    try {
      // A port nobody listens on (one just freed): the attempt is refused by the system.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await control('POST', '/_emulator/faults', { type: 'callback', chaos: 'duplicate' }, 201);
      await service('POST', '/v1/messaging', { form: { phone_number: '15555550190', message: 'x', message_type: 'ARN', callback_url: `http://127.0.0.1:${port}/refused` } });
      await server.emulator.waitFor(() => server.emulator.callbacks.attempts.find((a) => a.url.endsWith('/refused') && a.cause !== undefined));
      const { attempts } = (await control('GET', '/_emulator/callbacks')) as { attempts: Array<Json & { id: number }> };
      const refused = attempts.find((a) => String(a.url).endsWith('/refused'))!;
      expect(refused).toMatchObject({ ok: false, cause: 'ECONNREFUSED', address: `127.0.0.1:${port}`, chaos: { kind: 'duplicate' } });
      expect(refused.nextAttemptAt).toEqual(expect.any(Number));
      await control('POST', `/_emulator/callbacks/${refused.id}/resend`, undefined, 202);
      const saved = await control('GET', '/_emulator/snapshot');
      await control('PUT', '/_emulator/snapshot', saved);
      const restored = (await control('GET', '/_emulator/callbacks')) as { attempts: Json[] };
      expect(restored.attempts.some((a) => a.restored === true && a.cause === 'ECONNREFUSED')).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      stop();
      await control('POST', '/_emulator/reset');
    }
  });

  it('lists the HTML routes (the inspector page at / and /_emulator/inspector) as text/html', () => {
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    for (const path of ['/', '/_emulator/inspector']) expect(Object.keys(paths[path]?.get?.responses['200']?.content ?? {}), path).toEqual(['text/html']);
  });

  it('every documented operation was exercised', () => {
    const missing = operations().map(({ path, method }) => `${method} ${path}`).filter((key) => !covered.has(key));
    expect(missing).toEqual([]);
  });
});

describe('the document is stable', () => {
  // The served bytes, pinned: a refactor of where the enums or schemas come from must not change
  // one byte (a deliberate change of the document updates this digest and OPENAPI_VERSION).
  it('serves the same bytes as OPENAPI_VERSION 1.4.0 was published with', async () => {
    const body = await (await fetch(`${server.url}/_emulator/openapi.json`)).text();
    expect(JSON.parse(body).info.version).toBe('1.4.0');
    const digest = createHash('sha256').update(body).digest('hex');
    expect(digest).toBe('aeac488a2ce8e47d62c49051b8287261ba4897e4a0bfdb29bdff5a2e752528ca');
  });

  // 1.4.0 gave every operation an operationId, the empty errors arrays their items, made the
  // request schemas as strict as the emulator's validation and declared the rate fault's 429 with
  // Retry-After; the service's part (its paths and every schema they reach) is pinned at that.
  it('its service part is the one 1.4.0 published', async () => {
    const served = (await (await fetch(`${server.url}/_emulator/openapi.json`)).json()) as { paths: Json; components: { schemas: Json } };
    const paths = Object.fromEntries(Object.entries(served.paths).filter(([path]) => path !== '/' && !path.startsWith('/_emulator')));
    const schemas: Json = {};
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (typeof value !== 'object' || value === null) return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/components/schemas/')) {
          const name = inner.slice('#/components/schemas/'.length);
          if (!(name in schemas)) walk((schemas[name] = served.components.schemas[name]));
        } else walk(inner);
      }
    };
    walk(paths);
    expect(Object.keys(paths)).toHaveLength(21);
    expect(createHash('sha256').update(JSON.stringify({ paths, schemas })).digest('hex')).toBe('fa49ac84497ec2168c548cba813c0af6d3ac2a3a80cea9c53b00cdaf3a795a0f');
  });
});
