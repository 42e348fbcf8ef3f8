// Saved state: the CLI (its build, dist/cli.js) with --state, killed with SIGKILL right after its
// last answer, loses nothing it answered; a file that is not a saved state is refused and left as
// it is; GET/PUT /_emulator/snapshot round-trips, and a bad snapshot is refused by field.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ShapeError, type TransactionView } from '../src/index.js';
import { startEmulator } from '../src/node.js';
import { call, local } from './helpers.js';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [cli, '--port', '0', '--quiet', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /listening on (\S+)/.exec(out);
      if (match && out.includes('  cors:')) resolve({ child, url: match[1]!, stdout: () => out });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cli, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })));
}

const transactions = async (url: string) => ((await (await fetch(`${url}/_emulator/transactions`)).json()) as { transactions: TransactionView[] }).transactions;

describe('x-emulator --state', () => {
  it('kill -9 right after the last answer: every answered SMS is there after a restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'x-emulator-state-')), 'state.json');
    const first = await startCli(['--state', file, '--delivery-delay', '600000']);
    const refs: string[] = [];
    for (let i = 0; i < 25; i++) {
      const sent = await call(first.url, 'POST', '/v1/messaging', { form: { phone_number: `1555555${String(1000 + i)}`, message: `hello ${i}`, message_type: 'ARN' } });
      expect(sent.status).toBe(200);
      refs.push(sent.body.reference_id as string);
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startCli(['--state', file, '--delivery-delay', '600000']);
    expect(second.stdout()).toMatch(/state: .* \(25 transactions loaded\)/);
    expect((await transactions(second.url)).map((t) => t.referenceId)).toEqual(refs);
    const outbox = (await (await fetch(`${second.url}/_emulator/outbox`)).json()) as { messages: Array<{ text: string }> };
    expect(outbox.messages.map((m) => m.text)).toEqual(refs.map((_, i) => `hello ${i}`));
    const journal = (await (await fetch(`${second.url}/_emulator/journal?path=/v1/messaging`)).json()) as { entries: unknown[] };
    expect(journal.entries).toHaveLength(25);
    // The restored transactions answer their status to their account, as before the kill.
    expect((await call(second.url, 'GET', `/v1/messaging/${refs[0]}`)).body.status.code).toBe(290);
  });

  it('a file that is not a saved state: refused with what to do, exit 1, the file untouched', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'x-emulator-state-')), 'state.json');
    const corrupt = '{"format":"x-emulator-state","version":1,"savedAt":0,"clockOffsetMs":0,"transactions":[{"kind":"fax"}],"outbox":[],"callbacks":[],"journal":[]}';
    writeFileSync(file, corrupt);
    const refused = await runCli(['--state', file]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/state\.transactions\[0\]\.kind: must be one of "sms", "verify", "voice"/);
    expect(refused.stderr).toMatch(/left as it is.*move it away/);
    expect(readFileSync(file, 'utf8')).toBe(corrupt);

    writeFileSync(file, '{"format":"x-emulator-st');
    const truncated = await runCli(['--state', file]);
    expect(truncated.status).toBe(1);
    expect(truncated.stderr).toMatch(/not JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{"format":"x-emulator-st');
  });

  it('startEmulator({ state }) writes on close and loads on start; the temporary file is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-emulator-state-'));
    const file = join(dir, 'state.json');
    const one = await startEmulator({ state: file });
    const sent = await call(one.url, 'POST', '/v1/verify/sms', { form: { phone_number: '15555550150', verify_code: '4321' } });
    await one.close();
    const two = await startEmulator({ state: file });
    expect(two.emulator.transactions.get(sent.body.reference_id)?.verify).toMatchObject({ state: 'UNKNOWN', channel: 'sms' });
    // The code saved with it still checks.
    expect((await call(two.url, 'GET', `/v1/verify/${sent.body.reference_id}?verify_code=4321`)).body.verify.code_state).toBe('VALID');
    await two.close();
    expect(existsSync(join(dir, `.state.json.${process.pid}.tmp`))).toBe(false);
  });
});

describe('GET/PUT /_emulator/snapshot', () => {
  it('round-trips transactions, outbox, callback attempts, journal and the clock offset', async () => {
    const a = createEmulator({ deliveryDelayMs: 0 });
    await local(a, 'POST', '/v1/messaging', { form: { phone_number: '15555550160', message: 'saved', message_type: 'ARN' } });
    await a.clock.advance(5_000);
    const taken = await (await a.fetch('http://emulator.local/_emulator/snapshot')).json();
    const b = createEmulator();
    const put = await b.fetch('http://emulator.local/_emulator/snapshot', { method: 'PUT', body: JSON.stringify(taken) });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ restored: { transactions: 1, outbox: 1, callbacks: 0, journal: 1 } });
    expect(b.transactions.list()).toEqual(a.transactions.list());
    expect(b.outbox.list()).toEqual(a.outbox.list());
    // The PUT itself is journaled after what it restored.
    expect(b.journal.list().slice(0, -1)).toEqual(a.journal.list());
    expect(b.journal.list().at(-1)).toMatchObject({ seq: 2, method: 'PUT', path: '/_emulator/snapshot', verdict: 'control' });
    expect(b.clock.offsetMs).toBe(5_000);
    const c = createEmulator();
    c.restore(taken);
    expect(JSON.parse(JSON.stringify(c.snapshot()))).toEqual({ ...(taken as object), savedAt: expect.any(Number) });
  });

  it('a bad snapshot is refused with the path of the field, and the state is unchanged', async () => {
    const emulator = createEmulator();
    await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550162', message: 'kept', message_type: 'ARN' } });
    const good = emulator.snapshot();
    const bad = { ...good, outbox: [{ ...good.outbox[0], at: 'yesterday' }] };
    const put = await emulator.fetch('http://emulator.local/_emulator/snapshot', { method: 'PUT', body: JSON.stringify(bad) });
    expect(put.status).toBe(400);
    expect(await put.json()).toMatchObject({ code: 'invalid_state', field: 'state.outbox[0].at' });
    expect(() => emulator.restore({ ...good, version: 2 })).toThrow(ShapeError);
    expect(emulator.outbox.list().map((m) => m.text)).toEqual(['kept']);
  });

  it('saved callback attempts keep no signature, and cannot be re-sent', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a secret key for the snapshot test'), callbackUrl: 'http://127.0.0.1:9/cb' }], callbacks: { retryDelaysMs: [] } });
    await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550163', message: 'x', message_type: 'ARN' }, credentials: { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a secret key for the snapshot test') } });
    await emulator.idle();
    const signature = emulator.callbacks.attempts[0]!.headers['x-ts-authorization']!;
    const text = JSON.stringify(emulator.snapshot());
    expect(text).not.toContain(signature);
    expect(text).not.toContain(btoa('a secret key for the snapshot test'));
    const copy = createEmulator();
    copy.restore(JSON.parse(text));
    await expect(copy.callbacks.resend(copy.callbacks.attempts[0]!.id)).rejects.toThrow(/restored from a saved state/);
  });
});
