// The OpenAPI document as a contract tools accept: Spectral's `spectral:oas` and Redocly's
// `recommended` rulesets (the repository's dev dependencies, run as their CLIs) find no error in
// the document the emulator serves, and every operation has a unique operationId. A broken copy
// shows the linters really run (the checks can fail).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';

type Json = Record<string, unknown>;
const bin = (name: string) => fileURLToPath(new URL(`../../../node_modules/.bin/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'emulator-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const emulator = createEmulator();
const doc = (await (await emulator.fetch('http://127.0.0.1/_emulator/openapi.json')).json()) as Json;
emulator.close();

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: dir, timeout: 60_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

interface Problem {
  rule: string;
  severity: 'error' | 'warning' | 'other';
  where: string;
  message: string;
}

/** Spectral with spectral:oas: every problem it reports. */
async function spectral(document: Json, name: string): Promise<{ code: number; problems: Problem[] }> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  writeFileSync(join(dir, '.spectral.json'), JSON.stringify({ extends: ['spectral:oas'] }));
  const out = join(dir, `${name}.spectral.json`);
  const result = await run(bin('spectral'), ['lint', file, '--ruleset', join(dir, '.spectral.json'), '--format', 'json', '--output', out, '--quiet']);
  let found: Array<{ code: string; severity: number; path: string[]; message: string }>;
  try {
    found = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    throw new Error(`spectral wrote no report (exit ${result.code}): ${result.stderr}${result.stdout}`);
  }
  return { code: result.code, problems: found.map((p) => ({ rule: p.code, severity: p.severity === 0 ? 'error' : p.severity === 1 ? 'warning' : 'other', where: p.path.join('.'), message: p.message })) };
}

/** Redocly with its recommended ruleset: every problem it reports. */
async function redocly(document: Json, name: string): Promise<{ code: number; problems: Problem[] }> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  const result = await run(bin('redocly'), ['lint', file, '--extends', 'recommended', '--format', 'json']);
  const start = result.stdout.indexOf('{');
  let report: { problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }> };
  try {
    report = JSON.parse(result.stdout.slice(start));
  } catch {
    throw new Error(`redocly printed no report (exit ${result.code}): ${result.stderr}${result.stdout}`);
  }
  return { code: result.code, problems: report.problems.map((p) => ({ rule: p.ruleId, severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warning' : 'other', where: p.location[0]?.pointer ?? '', message: p.message })) };
}

const errors = (problems: Problem[]) => problems.filter((p) => p.severity === 'error').map((p) => `${p.rule} at ${p.where}: ${p.message}`);
const operations = (document: Json) =>
  Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

/** The document with the defects the linters must catch: an array schema without items, an operation without operationId. */
function broken(): Json {
  const copy = structuredClone(doc);
  const schemas = (copy.components as { schemas: Record<string, Json> }).schemas;
  (schemas.MessagingAnswer as { properties: Json }).properties.errors = { type: 'array' };
  delete ((copy.paths as Record<string, Record<string, Json>>)['/v1/messaging']!.post as Json).operationId;
  return copy;
}

describe('the OpenAPI document passes the contract linters', () => {
  it('every operation has an operationId, each a different one', () => {
    const ids = operations(doc).map(({ key, op }) => ({ key, id: op.operationId }));
    expect(ids.filter((o) => typeof o.id !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(o.id)).map((o) => o.key)).toEqual([]);
    expect(new Set(ids.map((o) => o.id)).size).toBe(ids.length);
  });

  it("Spectral's spectral:oas: no error (exit 0), no missing operationId", async () => {
    const { code, problems } = await spectral(doc, 'served');
    expect(errors(problems)).toEqual([]);
    expect(problems.filter((p) => p.rule === 'operation-operationId' || p.rule === 'operation-operationId-unique')).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);

  it("Redocly's recommended: no error (exit 0), no missing operationId", async () => {
    const { code, problems } = await redocly(doc, 'served');
    expect(errors(problems)).toEqual([]);
    expect(problems.filter((p) => p.rule.startsWith('operation-operationId'))).toEqual([]);
    expect(code).toBe(0);
  }, 60_000);

  it('both linters catch an array schema without items and a missing operationId (the checks can fail)', async () => {
    const bad = broken();
    const [s, r] = await Promise.all([spectral(bad, 'broken-s'), redocly(bad, 'broken-r')]);
    expect(s.code).not.toBe(0);
    expect(s.problems.map((p) => p.rule)).toEqual(expect.arrayContaining(['array-items', 'operation-operationId']));
    expect(r.problems.map((p) => p.rule)).toEqual(expect.arrayContaining(['operation-operationId']));
  }, 60_000);
});
