// The inspector in a real browser: Debian's Chromium through playwright-core, the emulator as an
// HTTP server on 127.0.0.1, traffic from the BUILT @x/client. Screenshots of the main views go to
// .ci-out/inspector-*.png (CI keeps them as artifacts).
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CUSTOMER, FAULT_STATUSES, STATUS_TEXT } from '../src/index.js';
import { startEmulator, type RunningEmulator, type ServerOptions } from '../src/node.js';
import { call } from './helpers.js';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const shots = fileURLToPath(new URL('../../../.ci-out/', import.meta.url));
const clientBuild = new URL('../../client/dist/index.js', import.meta.url);

interface AuthError extends Error {
  stringToSign?: string;
  serverStringToSign?: string;
  reason?: string;
}
interface Client {
  messaging: {
    send(p: Record<string, unknown>): Promise<{ data: { reference_id: string } }>;
    status(referenceId: string): Promise<{ data: { status: { code: number } } }>;
  };
  verify: { sms(p: Record<string, unknown>): Promise<unknown>; call(p: Record<string, unknown>): Promise<unknown> };
}
type ClientModule = { createClient(options: Record<string, unknown>): Client };

/** A callback receiver on 127.0.0.1 that records what it got and answers `status`. */
async function receiver(status = 200) {
  const received: Array<{ body: string; headers: Record<string, unknown> }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ body, headers: req.headers });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Waits for a value to come right (the page updates asynchronously); generous for a loaded CI machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

/** What the control API answers now (the page's actions must change it). */
async function control<T>(server: RunningEmulator, path: string): Promise<T> {
  const response = await fetch(`${server.url}/_emulator${path}`);
  expect(response.status, `GET /_emulator${path}`).toBe(200);
  return (await response.json()) as T;
}

// In CI a missing Chromium is a failure (.ci/run installs it), never a skip.
describe.skipIf(!existsSync(chromium) && !process.env.CI)('the inspector in Chromium', () => {
  let browser: Browser;
  let client: ClientModule;
  let page: Page;
  let server: RunningEmulator;
  let errors: string[];
  let hook: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    expect(existsSync(fileURLToPath(clientBuild)), 'build @x/client first (pnpm turbo run build)').toBe(true);
    // @x/client devDepends on @x/emulator, so the emulator loads the client's build.
    client = (await import(clientBuild.href)) as ClientModule;
    const { chromium: launcher } = await import('playwright-core');
    browser = await launcher.launch({
      executablePath: chromium,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh emulator (callbacks to a local receiver) and the page open on `view`. */
  async function open(view = 'inbox', options: ServerOptions = {}, width = 1280) {
    hook = await receiver();
    server = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: hook.url }], callbacks: { retryDelaysMs: [] }, logger: { error() {}, warn() {} }, ...options });
    page = await browser.newPage({ viewport: { width, height: 900 } });
    errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${server.url}/#${view}`);
    await page.locator('html[data-ready]').waitFor();
    await poll(() => page.locator('#live-state').textContent()).toBe('Live');
  }
  const sdk = (extra: Record<string, unknown> = {}) => client.createClient({ ...DEFAULT_CUSTOMER, baseUrl: server.url, ...extra });

  beforeEach(() => {
    errors = [];
  });
  afterEach(async () => {
    await page?.close();
    await server?.close();
    await hook?.close();
    expect(errors, 'errors in the page').toEqual([]);
  });

  it('loads: landmarks, one h1, every control labelled, live through the event stream', async () => {
    await open();
    expect(await page.title()).toBe('Inbox · Emulator inspector');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Emulator inspector');
    for (const role of ['banner', 'navigation', 'main'] as const) expect(await page.getByRole(role).count(), role).toBe(1);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input, select, textarea, button')]
        .filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label') && !(el.textContent ?? '').trim())
        .map((el) => el.outerHTML),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.locator('[aria-live="polite"]').count()).toBeGreaterThan(0);
  });

  it("the service's tables reach the page as data: every status code offered, the fault statuses listed and hinted", async () => {
    await open('faults');
    const offered = await page.locator('#status-codes option').evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(offered).toEqual(Object.entries(STATUS_TEXT).map(([code, text]) => [code, `${code} ${text}`]));
    expect(await page.locator('#fault-statuses option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(FAULT_STATUSES.map(String));
    expect(await page.locator('#fault-status-hint').textContent()).toBe(`status: ${FAULT_STATUSES.join(', ')}; error: 400 to 599; html: 500, 502, 503, 504.`);
  });

  it('shows an SMS sent by the client within a second, its text as text (an <img onerror> stays text)', async () => {
    await open();
    const text = 'Hi <img src=x onerror="document.title=\'owned\'"> & bye';
    await sdk().messaging.send({ phoneNumber: '+1 555 555 0100', message: text, messageType: 'ARN' });
    const phone = page.getByRole('article', { name: '+15555550100' });
    await phone.getByText(text, { exact: true }).waitFor({ timeout: 1_000 });
    expect(await page.locator('#phones img').count()).toBe(0);
    expect(await page.title()).not.toBe('owned');
    // Screen readers hear about it.
    await poll(() => page.locator('#announcer').textContent()).toContain('New SMS to +15555550100');

    // A verification code and a call with what it said, on their phones.
    await sdk().verify.sms({ phoneNumber: '15555550100', verifyCode: '424242' });
    await sdk().verify.call({ phoneNumber: '15555550123', verifyCode: '5150' });
    await phone.getByText('424242', { exact: true }).waitFor();
    const caller = page.getByRole('article', { name: '+15555550123' });
    await caller.locator('.bubble.call').waitFor();
    expect(await caller.locator('.bubble.call .body').textContent()).toContain('5');
    await page.screenshot({ path: `${shots}inspector-inbox.png`, fullPage: true });
  });

  it('an SMS shows its encoding, its parts with units, and the characters that forced UCS-2 where they are', async () => {
    await open();
    const start = 'Code – 424242 😀 ok ';
    const text = start + 'a'.repeat(89 - start.length);
    await sdk().messaging.send({ phoneNumber: '15555550100', message: text, messageType: 'ARN' });
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'plain {text}', messageType: 'ARN' });
    const bubbles = page.getByRole('article', { name: '+15555550100' }).locator('.bubble');
    await bubbles.nth(1).waitFor();
    const [ucs, gsm] = (await control<{ messages: Array<{ text: string; encoding: string; units: number; parts: number; unitsPerPart: number; nonGsm: Array<{ character: string; index: number }> }> }>(server, '/outbox')).messages;
    expect(ucs).toMatchObject({ encoding: 'UCS-2', units: 89, parts: 2, unitsPerPart: 67 });
    const first = bubbles.nth(0);
    expect(await first.locator('.sms-facts').textContent()).toBe('UCS-2 89 units, 2 × 67');
    expect(await first.locator('.sms-facts .badge').textContent()).toBe('UCS-2');
    // The offending characters, marked at their indexes; the text itself unchanged.
    expect(await first.locator('.body mark').allTextContents()).toEqual(ucs!.nonGsm.map((c) => c.character));
    expect(await first.locator('.body mark').allTextContents()).toEqual(['–', '😀']);
    expect(await first.locator('.body').textContent()).toBe(text);
    const second = bubbles.nth(1);
    expect(await second.locator('.sms-facts').textContent()).toBe(`GSM-7 ${gsm!.units} units, 1 × 160`);
    expect(gsm!.units).toBe(14);
    expect(await second.locator('.body mark').count()).toBe(0);
  });

  it('shows a failed signature with both strings, and the line that differs', async () => {
    await open('journal');
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'fine', messageType: 'ARN' });
    // A proxy between client and emulator that re-encodes the form body: the signature no longer matches.
    const rewriting = (input: RequestInfo | URL, init?: RequestInit) =>
      fetch(input, { ...init, ...(typeof init?.body === 'string' ? { body: init.body.replace(/\+/g, '%20') } : {}) });
    const error = (await sdk({ fetch: rewriting, retry: false })
      .messaging.send({ phoneNumber: '15555550100', message: 'two words', messageType: 'ARN' })
      .then(() => undefined, (e: unknown) => e)) as AuthError;
    expect(error?.reason).toBe('signature_mismatch');
    expect(error.stringToSign).toBeDefined();
    expect(error.serverStringToSign).toBeDefined();

    const failure = page.getByRole('region', { name: /^Signature failure of request/ });
    await failure.waitFor();
    await page.locator('#journal-table tbody[data-key]').nth(1).waitFor();
    const lines = async (label: string) => (await failure.getByRole('list', { name: label }).locator('li').allTextContents()).map((l) => l.replace(/ \(differs\)$/, ''));
    // The emulator's string, as its 401 said.
    const shown = (s: string) => s.split('\n').map((l) => l || '(empty line)');
    expect(await lines('The emulator signed')).toEqual(shown(error.serverStringToSign!));
    // The client's, pasted from error.stringToSign.
    await failure.getByLabel(/Paste what your client signed/).fill(error.stringToSign!);
    await failure.getByRole('button', { name: 'Compare' }).click();
    await poll(() => lines('Your client signed')).toEqual(shown(error.stringToSign!));
    const differing = await failure.locator('mark').allTextContents();
    // The one line that differs, marked on both sides.
    expect(differing).toEqual(['phone_number=15555550100&message=two%20words&message_type=ARN (differs)', 'phone_number=15555550100&message=two+words&message_type=ARN (differs)']);
    expect(await failure.getByRole('status').textContent()).toMatch(/^Line \d+ differs: the emulator signed "[^"]*two%20words[^"]*", your client "[^"]*two\+words/);
    // The row itself: the verdict and the 401.
    const row = page.locator('tr.refused').first();
    expect(await row.locator('td[data-label="Verdict"]').textContent()).toBe('signature_mismatch');
    expect(await row.locator('td[data-label="Status"]').textContent()).toMatch(/^401/);
    await page.screenshot({ path: `${shots}inspector-journal.png`, fullPage: true });
    // The filter goes to the API: only the refused request is left.
    await page.getByLabel('Verdict').fill('signature_mismatch');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await poll(() => page.locator('#journal-table tbody[data-key]').count()).toBe(1);
    expect(await page.locator('#journal-table tbody[data-key] td[data-label="Verdict"]').textContent()).toBe('signature_mismatch');
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await poll(() => page.locator('#journal-table tbody[data-key]').count()).toBe(2);
  });

  it('a wrong key: the same string on both sides, and the page says the key differs', async () => {
    await open('journal');
    const error = (await sdk({ apiKey: Buffer.from('not the key').toString('base64'), retry: false })
      .messaging.send({ phoneNumber: '15555550100', message: 'x', messageType: 'ARN' })
      .then(() => undefined, (e: unknown) => e)) as AuthError;
    expect(error.stringToSign).toBe(error.serverStringToSign);
    const failure = page.getByRole('region', { name: /^Signature failure of request/ });
    await failure.getByLabel(/Paste what your client signed/).fill(error.stringToSign!);
    await failure.getByRole('button', { name: 'Compare' }).click();
    await poll(() => failure.getByRole('status').textContent()).toMatch(/^The strings are identical: the signature differs because the key does/);
    expect(await failure.locator('mark').count()).toBe(0);
  });

  it('callbacks: every attempt with URL, status and latency, the signature shortened; re-send adds an attempt', async () => {
    await open('callbacks');
    const sent = await sdk().messaging.send({ phoneNumber: '15555550100', message: 'hello', messageType: 'ARN' });
    const ref = sent.data.reference_id;
    const card = page.locator('#callback-list article').filter({ hasText: ref });
    await card.first().waitFor();
    expect(await card.first().getByRole('heading').textContent()).toBe(`200 POST ${hook.url}`);
    expect(await card.first().textContent()).toMatch(/Latency\d+ ms/);
    const headers = await card.first().locator('details').first().textContent();
    expect(headers).toMatch(/authorizationTSA [^:]+:.{6}…/);
    // The full signature is nowhere on the page.
    const signature = String(hook.received[0]!.headers.authorization).split(':')[1]!;
    expect(await page.locator('body').textContent()).not.toContain(signature);

    await card.first().getByRole('button', { name: 'Check body' }).click();
    await poll(() => card.first().getByRole('status').textContent()).toMatch(/^Checked: the exact signed body \(\d+ bytes\) hashes to the recorded SHA-256/);

    const before = (await control<{ attempts: Array<{ referenceId: string }> }>(server, '/callbacks')).attempts.filter((a) => a.referenceId === ref).length;
    await card.first().getByRole('button', { name: 'Re-send' }).click();
    await poll(async () => (await control<{ attempts: Array<{ referenceId: string }> }>(server, '/callbacks')).attempts.filter((a) => a.referenceId === ref).length).toBe(before + 1);
    await poll(() => card.count()).toBe(before + 1);
    expect(hook.received.length).toBe(before + 1);
    const [first] = (await control<{ attempts: Array<{ id: number; referenceId: string }> }>(server, '/callbacks')).attempts.filter((x) => x.referenceId === ref);
    expect(await card.first().textContent()).toContain(`Re-sent from#${first!.id}`);
    await card.first().locator('summary', { hasText: 'Signed headers' }).click();
    await page.screenshot({ path: `${shots}inspector-callbacks.png`, fullPage: true });
  });

  it('callback chaos and restored attempts: a badge with the kind and what was done; a restored attempt cannot be re-sent', async () => {
    await open('callbacks');
    const added = await fetch(`${server.url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'callback', chaos: 'duplicate', copies: 1 }) });
    expect(added.status).toBe(201);
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'twice', messageType: 'ARN' });
    await poll(async () => (await control<{ attempts: unknown[] }>(server, '/callbacks')).attempts.length).toBe(2);
    const { attempts } = await control<{ attempts: Array<{ chaos?: { kind: string; detail: string } }> }>(server, '/callbacks');
    const details = attempts.map((a) => a.chaos?.detail);
    expect(details.every((d) => typeof d === 'string')).toBe(true);
    const cards = page.locator('#callback-list article');
    await poll(() => cards.count()).toBe(2);
    await poll(() => cards.locator('.badge.chaos').allTextContents()).toEqual(['duplicate', 'duplicate']);
    expect(await cards.locator('.chaos-detail').allTextContents()).toEqual(details.slice().reverse());
    expect(await cards.first().getByRole('button', { name: 'Re-send' }).isDisabled()).toBe(false);

    // A saved state loaded: the attempts are restored, without their signatures.
    const saved = await (await fetch(`${server.url}/_emulator/snapshot`)).text();
    const put = await fetch(`${server.url}/_emulator/snapshot`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: saved });
    expect(put.status).toBe(200);
    await poll(() => cards.locator('.badge.restored').count()).toBe(2);
    expect(await cards.first().locator('.badge.restored').textContent()).toBe('restored');
    expect(await cards.first().getByRole('button', { name: 'Re-send' }).isDisabled()).toBe(true);
    expect(await cards.first().getByRole('button', { name: 'Copy as curl' }).isDisabled()).toBe(true);
    // The chaos stays on a restored attempt.
    expect(await cards.locator('.badge.chaos').count()).toBe(2);
  });

  it('a failed delivery: the card says what the callback is about before it is opened, and why, where and when it is tried again', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await open('callbacks', { customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `http://127.0.0.1:${port}/cb` }], callbacks: { retryDelaysMs: [60_000] } });
    const sent = await sdk().messaging.send({ phoneNumber: '15555550100', message: 'nobody listens', messageType: 'ARN' });
    const card = page.locator('#callback-list article').filter({ hasText: sent.data.reference_id }).first();
    await card.waitFor();
    const [attempt] = (await control<{ attempts: Array<{ nextAttemptAt: number; payload: { status: { code: number; description: string } } }> }>(server, '/callbacks')).attempts;
    // In the card's header, outside every <details>: the kind (sub_resource) and the status it reports.
    expect(await card.locator('header').textContent()).toContain(`sms · ${attempt!.payload.status.code} ${attempt!.payload.status.description}`);
    expect(await card.textContent()).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(await card.locator('dd time').last().getAttribute('datetime')).toBe(new Date(attempt!.nextAttemptAt).toISOString());
  });

  it('sending an inbound SMS from the page: the API then has its callback, with the text', async () => {
    await open('inbox');
    await page.getByLabel('From (the phone)').fill('+1 555 555 0177');
    await page.getByLabel('To (your number)').fill('15555559999');
    await page.getByLabel('Text', { exact: true }).fill('STOP <b>now</b>');
    await page.getByRole('button', { name: 'Send inbound SMS' }).click();
    await poll(() => page.locator('#inbound-result').textContent()).toMatch(/^Sent: reference [0-9A-F]{32}, callback to /);
    await poll(async () => (await control<{ attempts: Array<{ payload?: { user_response?: { mo_message?: string } } }> }>(server, '/callbacks')).attempts.map((a) => a.payload?.user_response?.mo_message)).toEqual(['STOP <b>now</b>']);
  });

  it('setting a transaction final status from the page: the API then answers it, and the client reads it', async () => {
    await open('transactions', { deliveryDelayMs: 3_600_000 });
    const sent = await sdk().messaging.send({ phoneNumber: '15555550100', message: 'pending', messageType: 'ARN' });
    const ref = sent.data.reference_id;
    const card = page.getByRole('article', { name: new RegExp(ref) });
    await card.getByText('In progress', { exact: true }).waitFor();
    await card.getByLabel('Final status').fill('207');
    await card.getByRole('button', { name: 'Set final status' }).click();
    await poll(async () => (await control<{ transactions: Array<{ referenceId: string; status: { code: number }; final: boolean }> }>(server, '/transactions')).transactions.find((t) => t.referenceId === ref)).toMatchObject({ status: { code: 207 }, final: true });
    await card.getByText('Final', { exact: true }).waitFor();
    expect((await sdk().messaging.status(ref)).data.status.code).toBe(207);
    // A code that is not valid for an SMS: the API's error, shown beside the form.
    const other = await sdk().messaging.send({ phoneNumber: '15555550100', message: 'second', messageType: 'ARN' });
    const second = page.getByRole('article', { name: new RegExp(other.data.reference_id) });
    await second.getByLabel('Final status').fill('100');
    await second.getByRole('button', { name: 'Set final status' }).click();
    await poll(() => second.getByRole('status').getAttribute('class')).toContain('error');
    expect(await second.getByRole('status').textContent()).toContain('100');
    errors = errors.filter((e) => !/status of 400/.test(e));
  });

  it('advancing the clock from the page: the API then answers the new time', async () => {
    await open('inbox');
    const before = await control<{ now: number; offsetMs: number }>(server, '/clock');
    await page.getByLabel('Advance by').fill('10');
    await page.getByLabel('Unit').selectOption({ label: 'minutes' });
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await poll(async () => (await control<{ offsetMs: number }>(server, '/clock')).offsetMs).toBe(before.offsetMs + 600_000);
    await poll(() => page.locator('#clock-offset').textContent()).toBe('(10 min ahead)');
  });

  it('a rate fault from the page: its limit and Retry-After sent (no times, no probability), described, and the service then answers 429', async () => {
    await open('faults');
    const faults = async () => (await control<{ faults: unknown[] }>(server, '/faults')).faults;
    await page.getByLabel('Type').selectOption('rate');
    expect(await page.getByLabel('Times').isHidden()).toBe(true);
    await page.getByLabel('Requests a second (per customer)').fill('1');
    await page.getByLabel('Retry-After (seconds, optional)').fill('7');
    await page.locator('#fault-form').getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toEqual([{ type: 'rate', perSecond: 1, retryAfterSeconds: 7 }]);
    await poll(() => page.locator('#fault-list li p').first().textContent()).toBe('answer 429 past 1 requests a second of one customer (Retry-After 7 s) — every request, any method on any path');
    const statuses: number[] = [];
    for (let n = 0; n < 20 && !statuses.includes(429); n++) statuses.push((await call(server.url, 'GET', '/v1/voice')).status);
    expect(statuses).toContain(429);
    await page.getByRole('button', { name: 'Clear all faults' }).click();
    await poll(faults).toEqual([]);
  });

  it('adding, removing and clearing faults from the page: the API then answers them', async () => {
    await open('faults');
    const faults = async () => (await control<{ faults: unknown[] }>(server, '/faults')).faults;
    await page.getByLabel('Type').selectOption('status');
    await page.locator('#fault-form').getByLabel('HTTP status').fill('503');
    await page.getByLabel('Times').fill('2');
    await page.getByLabel('Only paths starting with (optional)').fill('/v1/messaging');
    await page.locator('#fault-form').getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toEqual([{ type: 'status', status: 503, times: 2, path: '/v1/messaging' }]);
    await page.getByLabel('Rule').fill('{"type":"latency","ms":5}');
    await page.locator('#fault-json-form').getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toHaveLength(2);
    // An error fault: its own fields (code, description); the status fault's Retry-After left empty is not sent.
    await page.getByLabel('Type').selectOption('error');
    await page.locator('#fault-form').getByLabel('HTTP status').fill('401');
    await page.getByLabel('Service code').fill('10008');
    await page.getByLabel('Description (optional)').fill('Invalid Signature');
    expect(await page.getByLabel('Latency (ms)').isHidden()).toBe(true);
    await page.locator('#fault-form').getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toHaveLength(3);
    expect((await faults())[2]).toEqual({ type: 'error', status: 401, code: 10008, description: 'Invalid Signature', times: 2, path: '/v1/messaging' });
    await page.getByRole('button', { name: /^Remove fault 3:/ }).click();
    await poll(faults).toHaveLength(2);
    await page.locator('#fault-list li').nth(1).waitFor();
    await page.getByRole('button', { name: /^Remove fault 1:/ }).click();
    await poll(faults).toEqual([expect.objectContaining({ type: 'latency', ms: 5 })]);
    // A bad rule: the API's message, shown.
    await page.getByLabel('Rule').fill('{"type":"status","status":200}');
    await page.locator('#fault-json-form').getByRole('button', { name: 'Add fault' }).click();
    await poll(() => page.locator('#faults-result').textContent()).toMatch(/status/);
    expect(await page.locator('#faults-result').getAttribute('class')).toContain('error');
    await page.getByRole('button', { name: 'Clear all faults' }).click();
    await poll(faults).toEqual([]);
    await page.getByText('No fault is active').waitFor();
    errors = errors.filter((e) => !/status of 400/.test(e));
  });

  it('callback faults from the page: its chaos fields, listed and removed like the others; a refusal marks the field', async () => {
    await open('faults');
    const faults = async () => (await control<{ faults: unknown[] }>(server, '/faults')).faults;
    const form = page.locator('#fault-form');
    await page.getByLabel('Type').selectOption('callback');
    expect(await form.getByLabel('Only paths starting with (optional)').isHidden()).toBe(true);
    await form.getByLabel('Chaos').selectOption('duplicate');
    expect(await form.getByLabel('Delay (ms)').isHidden()).toBe(true);
    await form.getByLabel('Copies').fill('2');
    await form.getByLabel('Only numbers starting with (optional)').fill('+1 555');
    await form.getByLabel('Only product (optional)').selectOption('messaging');
    await page.getByLabel('Times').fill('3');
    await form.getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toEqual([{ type: 'callback', chaos: 'duplicate', copies: 2, phoneNumber: '1555', product: 'messaging', times: 3 }]);
    const item = page.locator('#fault-list li').first();
    await poll(() => item.locator('p').textContent()).toBe('send 2 extra copies — the next 3 callbacks, messaging callbacks about numbers starting with 1555');

    // Late: its delay, not the copies; a delay out of range is refused and its input marked.
    await form.getByLabel('Chaos').selectOption('late');
    expect(await form.getByLabel('Copies').isHidden()).toBe(true);
    await form.getByLabel('Delay (ms)').fill('99999999');
    await form.getByRole('button', { name: 'Add fault' }).click();
    await poll(() => page.locator('#faults-result').textContent()).toMatch(/delayMs/);
    expect(await form.getByLabel('Delay (ms)').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Delay (ms)').fill('2000');
    await form.getByRole('button', { name: 'Add fault' }).click();
    await poll(faults).toHaveLength(2);
    expect((await faults())[1]).toEqual({ type: 'callback', chaos: 'late', delayMs: 2000, phoneNumber: '1555', product: 'messaging', times: 3 });
    expect(await form.getByLabel('Delay (ms)').getAttribute('aria-invalid')).toBeNull();
    await page.getByRole('button', { name: /^Remove fault 1:/ }).click();
    await poll(faults).toEqual([expect.objectContaining({ chaos: 'late' })]);
    errors = errors.filter((e) => !/status of 400/.test(e));
  });

  it('number scripts: listed with their steps left and the default rules, live; removed one by one', async () => {
    await open('faults');
    const scripts = async () => (await control<{ numbers: unknown[] }>(server, '/numbers')).numbers;
    const list = page.locator('#script-list li');
    await page.getByText('No number script').waitFor();
    // The default rules: the test suffixes.
    const { defaults } = await control<{ defaults: Array<{ suffix: string }> }>(server, '/numbers');
    await poll(() => page.locator('#number-defaults tbody tr').count()).toBe(defaults.length);
    expect(await page.locator('#number-defaults tbody td[data-label="Suffix"]').allTextContents()).toEqual(defaults.map((d) => d.suffix));

    const numbers = [
      { number: '15555550100', steps: [{ sms: 'undeliverable' }, { call: 'answered', delayMs: 2000 }] },
      { prefix: '1555777', steps: [{ phoneid: { type: 'VOIP', risk: 820 } }] },
    ];
    expect((await fetch(`${server.url}/_emulator/numbers`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers }) })).status).toBe(200);
    await poll(() => list.count()).toBe(2);
    expect(await list.nth(0).locator('p').textContent()).toBe('+15555550100: 2 steps left (SMS undeliverable; call answered after 2.0 s)');
    expect(await list.nth(1).locator('p').textContent()).toBe('Numbers starting with 1555777: 1 step left (PhoneID VOIP, risk 820)');
    // The SMS takes its step: the page follows.
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'scripted', messageType: 'ARN' });
    await poll(() => list.nth(0).locator('p').textContent()).toBe('+15555550100: 1 step left (call answered after 2.0 s)');
    await page.getByRole('button', { name: 'Remove the script of +15555550100' }).click();
    await poll(scripts).toEqual([numbers[1]]);
    await poll(() => list.count()).toBe(1);

    // One added as JSON from the page.
    await page.getByLabel('Script', { exact: true }).fill('{"number":"15555550199","steps":[{"sms":"delivered"}]}');
    await page.getByRole('button', { name: 'Add script' }).click();
    await poll(scripts).toHaveLength(2);
    await poll(() => list.count()).toBe(2);
    await page.locator('#number-defaults summary').click();
    await page.screenshot({ path: `${shots}inspector-faults.png`, fullPage: true });
  });

  it('reset from the page: the API then answers empty lists, and so does the page', async () => {
    await open('inbox');
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'to forget', messageType: 'ARN' });
    await page.locator('#phones').getByText('to forget', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Reset emulator' }).click();
    await poll(async () => (await control<{ messages: unknown[] }>(server, '/outbox')).messages).toEqual([]);
    await page.getByText('No message has reached a phone yet.').waitFor();
    expect(await page.locator('#phones article').count()).toBe(0);
  });

  it('works by keyboard: the views are links, and the focus moves to the heading of the one opened', async () => {
    await open('inbox');
    // Opened without a view in the address, the first Tab reaches the skip link.
    await page.goto(`${server.url}/`);
    await page.locator('html[data-ready]').waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the content');
    await page.getByRole('link', { name: /^Journal/ }).focus();
    await page.keyboard.press('Enter');
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('journal-h');
    expect(await page.getByRole('link', { name: /^Journal/ }).getAttribute('aria-current')).toBe('page');
    expect(await page.locator('#inbox').isHidden()).toBe(true);
    // The focus is visible: an outline on the focused control.
    await page.getByLabel('Path starts with').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
  });

  it('with a control token: the token from the address (then gone from it) or typed in, sent with every call', async () => {
    hook = await receiver();
    server = await startEmulator({ controlToken: 'tok-abc-123', customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: hook.url }], logger: { error() {}, warn() {} } });
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/#inbox&token=tok-abc-123`);
    await poll(() => page.locator('#live-state').textContent()).toBe('Live');
    expect(new URL(page.url()).hash).toBe('#inbox');
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'behind a token', messageType: 'ARN' });
    await page.locator('#phones').getByText('behind a token', { exact: true }).waitFor();

    // A new tab without it: the page asks, and works once given.
    const other = await browser.newPage();
    try {
      await other.goto(`${server.url}/#inbox`);
      await other.getByLabel('Control token').waitFor();
      expect(await other.locator('#top-result').textContent()).toContain('control token');
      await other.getByLabel('Control token').fill('tok-abc-123');
      await other.getByRole('button', { name: 'Use token' }).click();
      await other.locator('#phones').getByText('behind a token', { exact: true }).waitFor();
      await poll(() => other.locator('#live-state').textContent()).toBe('Live');
    } finally {
      await other.close();
    }
  });

  it('a malformed #token in the address: the page says so and asks for the token, and works once given', async () => {
    hook = await receiver();
    server = await startEmulator({ controlToken: 'tok-abc-123', customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: hook.url }], logger: { error() {}, warn() {} } });
    page = await browser.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/#inbox&token=%E0%A4%A`);
    await page.getByLabel('Control token').waitFor();
    expect(await page.locator('#top-result').textContent()).toContain('control token');
    expect(new URL(page.url()).hash).toBe('#inbox');
    await page.getByLabel('Control token').fill('tok-abc-123');
    await page.getByRole('button', { name: 'Use token' }).click();
    await poll(() => page.locator('#live-state').textContent()).toBe('Live');
  });

  it('a narrow window: one column, nothing wider than the window, in every view', async () => {
    await open('inbox', {}, 380);
    await sdk().messaging.send({ phoneNumber: '15555550100', message: 'narrow '.repeat(30), messageType: 'ARN' });
    await page.locator('#phones article').waitFor();
    const filled = { inbox: '#phones article', transactions: '#transaction-list li', callbacks: '#callback-list li', journal: '#journal-table tbody[data-key]', faults: '#faults-empty' };
    for (const [view, content] of Object.entries(filled)) {
      await page.goto(`${server.url}/#${view}`);
      await page.locator(content).first().waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, view).toBeLessThanOrEqual(380);
    }
    // The default rules of number scripts, opened: their table as cards too.
    await page.goto(`${server.url}/#faults`);
    await page.locator('#number-defaults summary').click();
    await page.locator('#default-rows tr').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'default rules').toBeLessThanOrEqual(380);
    await page.goto(`${server.url}/#inbox`);
    await page.locator('#phones article').waitFor();
    await page.screenshot({ path: `${shots}inspector-narrow.png`, fullPage: true });
  });
});
