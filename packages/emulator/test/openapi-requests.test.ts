// The document's request schemas are as strict as the emulator's validation: requests generated
// from them (fast-check arbitraries derived from each operation's parameters and body schema, every
// generated value checked against the document with ajv first) are all accepted: never a 400. The
// schemas are built from the validation's own constants (service/validate.ts), so they cannot drift.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { local } from './helpers.js';

type Json = Record<string, unknown>;
const DOC_ID = 'https://x-emulator.invalid/openapi.json';

const emulator = createEmulator({ deliveryDelayMs: 0 });
afterAll(() => emulator.close());
const doc = (await (await emulator.fetch('http://127.0.0.1/_emulator/openapi.json')).json()) as Json;
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ ...doc, $id: DOC_ID });

const resolve = (schema: Json): Json => {
  if (typeof schema.$ref !== 'string') return schema;
  let at: unknown = doc;
  for (const part of schema.$ref.replace(/^#\//, '').split('/')) at = (at as Json)[part];
  return resolve(at as Json);
};

/** Text of any Unicode characters (not only ASCII), within the length bounds. */
const anyText = (min: number, max: number) => fc.string({ unit: 'grapheme', minLength: min, maxLength: max });

/**
 * An arbitrary of values of a schema: the keywords the request schemas use (types, enum, const,
 * pattern, lengths, bounds, properties, prefixItems/items, anyOf/oneOf). Conditions it does not
 * build from (if/then, not, dependentRequired) are left to the ajv check that filters the values.
 */
function arbitraryOf(raw: Json): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (branches) {
    const { anyOf: _a, oneOf: _o, ...base } = schema;
    return fc.oneof(...branches.map((branch) => arbitraryOf({ ...base, ...resolve(branch) })));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = (schema.maxLength as number | undefined) ?? 64;
      const length = (s: string) => [...s].length >= min && [...s].length <= max;
      if (schema.format === 'uri') return fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(length);
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(length);
      return anyText(min, Math.min(max, 300));
    }
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000 });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const prefix = ((schema.prefixItems as Json[] | undefined) ?? []).map(arbitraryOf);
      const rest = schema.items ? arbitraryOf(schema.items as Json) : fc.constant(null);
      const min = Math.max(0, ((schema.minItems as number | undefined) ?? 0) - prefix.length);
      const max = Math.max(min, ((schema.maxItems as number | undefined) ?? 3) - prefix.length);
      return fc.tuple(fc.tuple(...prefix), fc.array(rest, { minLength: min, maxLength: max })).map(([head, tail]) => [...head, ...tail]);
    }
    case 'object': {
      const properties = (schema.properties as Record<string, Json> | undefined) ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, arbitraryOf(inner)]));
      return fc.record(model, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return fc.constant({});
  }
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Json }>;
  body?: { schema: Json; form: boolean };
}

const operations: Operation[] = Object.entries(doc.paths as Record<string, Record<string, Json>>)
  .filter(([path]) => path !== '/' && !path.startsWith('/_emulator'))
  .flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const content = (op.requestBody as { content: Record<string, { schema: Json }> } | undefined)?.content;
      return {
        method: method.toUpperCase(),
        path,
        operationId: op.operationId as string,
        parameters: (op.parameters as Operation['parameters'] | undefined) ?? [],
        ...(content ? { body: { schema: content['application/json']!.schema, form: 'application/x-www-form-urlencoded' in content } } : {}),
      };
    }),
  );

/** A request of an operation: its path and query filled in, its body; each valid by the document. */
function requestOf(op: Operation): fc.Arbitrary<{ path: string; form?: Record<string, string>; json?: unknown }> {
  const params = Object.fromEntries(op.parameters.map((p) => [p.name, p.required ? arbitraryOf(p.schema) : fc.option(arbitraryOf(p.schema), { nil: undefined })]));
  const validBody = op.body ? ajv.compile({ $ref: `${DOC_ID}#/paths/${op.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method.toLowerCase()}/requestBody/content/application~1json/schema` }) : undefined;
  const body = op.body ? arbitraryOf(op.body.schema).filter((value) => validBody!(value)) : fc.constant(undefined);
  return fc.record({ params: fc.record(params), body, asForm: fc.boolean() }).map(({ params: values, body: value, asForm }) => {
    let path = op.path;
    const query = new URLSearchParams();
    for (const p of op.parameters) {
      const v = values[p.name];
      if (v === undefined) continue;
      if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(v)));
      else query.set(p.name, String(v));
    }
    const flat = value !== undefined && Object.values(value as Json).every((v) => typeof v === 'string');
    const form = op.body?.form && asForm && flat ? (value as Record<string, string>) : undefined;
    return { path: `${path}${query.size ? `?${query}` : ''}`, ...(form ? { form } : value !== undefined ? { json: value } : {}) };
  });
}

describe("requests valid by the document's schemas are accepted by the emulator", () => {
  it('covers every service operation that takes a body or parameters', () => {
    expect(operations.filter((op) => op.body || op.parameters.length).map((op) => op.operationId)).toHaveLength(21);
  });

  for (const op of operations) {
    if (!op.body && op.parameters.length === 0) continue;
    it(`${op.operationId}: ${op.method} ${op.path}, never answered 400`, async () => {
      await fc.assert(
        fc.asyncProperty(requestOf(op), async (request) => {
          emulator.reset();
          const answer = await local(emulator, op.method, request.path, request);
          expect(answer.status, `${op.method} ${request.path} ${JSON.stringify(request.form ?? request.json)} -> ${JSON.stringify(answer.body)}`).not.toBe(400);
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe('the schemas carry the validation (each can fail)', () => {
  const valid = (name: string, value: unknown) => ajv.validate({ $ref: `${DOC_ID}#/components/schemas/${name}` }, value);
  const cases: Array<[string, unknown, string]> = [
    ['MessagingRequest', { phone_number: '+15555550100', message: 'hi', message_type: 'ARN' }, 'a phone number with a plus'],
    ['MessagingRequest', { phone_number: '15555550100', message: '', message_type: 'ARN' }, 'an empty message'],
    ['MessagingRequest', { phone_number: '15555550100', message: 'x'.repeat(1601), message_type: 'ARN' }, 'a message over 1600 characters'],
    ['MessagingRequest', { phone_number: '15555550100', message: 'hi', message_type: 'ARN', originating_ip: '300.1.1.1' }, 'an IPv4 address out of range'],
    ['MessagingRequest', { phone_number: '15555550100', message: 'hi', message_type: 'ARN', sender_id: '' }, 'an empty sender id'],
    ['MessagingRequest', { phone_number: '15555550100', message: 'hi', message_type: 'ARN', callback_url: 'http://127.0.0.1:4010/_emulator/reset' }, 'a callback URL to the control routes'],
    ['MessagingRequest', { phone_number: '15555550100', message: 'hi', message_type: 'ARN', callback_url: 'http://127.0.0.1:4010/%5FEmulator/reset' }, 'the same, spelled otherwise'],
    ['PhoneIdRequest', {}, 'PhoneID without phone_number'],
    ['VerifyRequest', { phone_number: '15555550100', template: 'Your code' }, 'a template without $$CODE$$'],
    ['VerifyRequest', { phone_number: '15555550100', language: 'english' }, 'a language not as en-US'],
    ['EmailRiskRequest', { email_address: 'not an email', account_lifecycle_event: 'create' }, 'an email address without @'],
    ['VoiceVerifyRequest', { phone_number: '15555550100', prompt_message: 'press 1' }, 'prompt_message without prompt_digit'],
    ['VoiceVerifyRequest', { phone_number: '15555550100', pressx: 'true', language: 'en-US' }, 'pressx with language'],
    ['BulkSmsRequest', { recipients: '15555550100:,15555550101', template: 'hi' }, 'a bulk recipient with an empty id'],
    ['VerificationRequest', { recipient: { email: 'a@example.com' } }, 'the default SMS policy without a phone number'],
    ['VerificationRequest', { recipient: { phone_number: '15555550100' }, verification_policy: [{ method: 'sms' }, { method: 'push' }] }, 'push after the first method'],
  ];
  for (const [name, value, what] of cases) {
    it(`${name} refuses ${what}, as the emulator does`, () => {
      expect(valid(name, value)).toBe(false);
    });
  }
});
