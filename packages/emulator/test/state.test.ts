// Saved state: startEmulator({ state }) writes and loads; GET/PUT /_emulator/snapshot round-trips,
// and a bad snapshot is refused by field. The CLI's --state (kill -9, a corrupt file) is tested in
// cli.test.ts, against its build.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_CUSTOMER, ShapeError, SNAPSHOT_FORMAT } from '../src/index.js';
import { startEmulator } from '../src/node.js';
import { call, local } from './helpers.js';

describe('startEmulator({ state })', () => {
  it('writes on close and loads on start; the temporary file is gone', async () => {
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

  it('a transaction is saved as status and history objects, a copy that later changes do not touch, and restored as saved', async () => {
    const customers = [{ ...DEFAULT_CUSTOMER, callbackUrl: 'http://127.0.0.1:9/cb' }];
    const a = createEmulator({ deliveryDelayMs: 1_000, customers });
    const sent = await local(a, 'POST', '/v1/messaging', { form: { phone_number: '15555550162', message: 'kept', message_type: 'ARN' } });
    const before = a.snapshot();
    const [saved] = before.transactions;
    const created = saved!.createdAt;
    expect(Object.keys(saved!)).toEqual(['kind', 'referenceId', 'customerId', 'phoneNumber', 'createdAt', 'settlesAt', 'status', 'history', 'finalCode']);
    expect(saved).toMatchObject({ referenceId: sent.body.reference_id, status: { code: 290, updatedAt: created }, history: [{ code: 290, at: created }] });
    a.transactions.setStatus(sent.body.reference_id, 207);
    // The snapshot taken before is a copy: the change is not in it.
    expect(before.transactions[0]).toEqual(saved);
    expect(before.transactions[0]!.history).toHaveLength(1);
    const after = a.snapshot().transactions[0]!;
    expect(after.status.code).toBe(207);
    expect(after.history.map((h) => h.code)).toEqual([290, 207]);
    const b = createEmulator({ customers });
    b.restore(a.snapshot());
    expect(b.snapshot().transactions).toEqual(a.snapshot().transactions);
    expect(b.transactions.get(sent.body.reference_id)).toEqual(a.transactions.get(sent.body.reference_id));
    a.close();
    b.close();
  });

  it('a saved status that is not the last of its history (written by hand) is restored as the status, after the history', () => {
    const a = createEmulator();
    const at = a.clock.now();
    const tx = { kind: 'sms', referenceId: 'A'.repeat(32), customerId: DEFAULT_CUSTOMER.customerId, phoneNumber: '15555550163', createdAt: at, settlesAt: at, status: { code: 207, updatedAt: at + 5 }, history: [{ code: 290, at }], finalCode: 200 };
    a.restore({ format: SNAPSHOT_FORMAT, version: 1, savedAt: at, clockOffsetMs: 0, transactions: [tx], outbox: [], callbacks: [], journal: [] });
    const view = a.transactions.get('A'.repeat(32))!;
    expect(view.status).toMatchObject({ code: 207 });
    expect(view.history).toEqual([{ code: 290, at }, { code: 207, at: at + 5 }]);
    expect(view.final).toBe(true);
    a.close();
  });

  it("an SMS's encoding, parts and the characters that forced UCS-2 round-trip with it", async () => {
    const a = createEmulator({ deliveryDelayMs: 0 });
    await local(a, 'POST', '/v1/messaging', { form: { phone_number: '15555550161', message: `“quoted” ${'x'.repeat(80)}`, message_type: 'ARN' } });
    const [sent] = a.outbox.list();
    expect(sent).toMatchObject({ encoding: 'UCS-2', parts: 2, nonGsm: [{ character: '“', index: 0 }, { character: '”', index: 7 }] });
    const b = createEmulator();
    const put = await b.fetch('http://emulator.local/_emulator/snapshot', { method: 'PUT', body: JSON.stringify(a.snapshot()) });
    expect(put.status).toBe(200);
    expect(b.outbox.list()).toEqual([sent]);
    expect(() => b.restore({ ...a.snapshot(), outbox: [{ ...sent, encoding: 'UTF-8' }] })).toThrow(/state\.outbox\[0\]\.encoding/);
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

  it('saved callback attempts keep no signature (and cannot be re-sent), URLs no password', async () => {
    const emulator = createEmulator({ deliveryDelayMs: 0, customers: [{ customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a secret key for the snapshot test'), callbackUrl: 'http://hook:url-pass-word@127.0.0.1:9/cb' }], callbacks: { retryDelaysMs: [] } });
    await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550163', message: 'x', message_type: 'ARN' }, credentials: { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a secret key for the snapshot test') } });
    await emulator.idle();
    const signature = emulator.callbacks.attempts[0]!.headers['x-ts-authorization']!;
    const text = JSON.stringify(emulator.snapshot());
    expect(text).not.toContain(signature);
    expect(text).not.toContain(btoa('a secret key for the snapshot test'));
    // A kept transaction holds its account (key included) for its callbacks: no view of it shows the account.
    const shown = JSON.stringify([emulator.transactions.list(), emulator.transactions.get(emulator.transactions.list()[0]!.referenceId)]);
    expect(shown).toContain('15555550163');
    expect(shown).not.toContain(btoa('a secret key for the snapshot test'));
    // Delivered with HTTP Basic from the URL's credentials; every record shows the URL with its password masked.
    expect(emulator.callbacks.attempts[0]!.url).toBe('http://hook:***@127.0.0.1:9/cb');
    // The runtime's error may name the URL: its password is masked there too.
    expect(emulator.callbacks.attempts[0]!.error).toMatch(/^TypeError: /);
    expect(emulator.callbacks.attempts[0]!.error).not.toContain('url-pass-word');
    expect(text).not.toContain('url-pass-word');
    const copy = createEmulator();
    copy.restore(JSON.parse(text));
    await expect(copy.callbacks.resend(copy.callbacks.attempts[0]!.id)).rejects.toThrow(/restored from a saved state/);
  });
});
