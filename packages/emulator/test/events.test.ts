// GET /_emulator/events: Server-Sent Events over real HTTP, read with fetch and a stream reader.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';
import { call } from './helpers.js';

interface Sse {
  event: string;
  data: unknown;
}

/** Reads server-sent events from a response until `enough` says stop (or the stream ends). */
async function readEvents(response: Response, enough: (events: Sse[]) => boolean): Promise<{ events: Sse[]; comments: string[]; ended: boolean }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: Sse[] = [];
  const comments: string[] = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { events, comments, ended: true };
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n');
      comments.push(...lines.filter((l) => l.startsWith(':')));
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
    }
    if (enough(events)) {
      await reader.cancel();
      return { events, comments, ended: false };
    }
  }
}

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator();
});
afterAll(() => server.close());

describe('GET /_emulator/events', () => {
  it('streams journal, outbox, transaction, faults, clock and reset events as they happen', async () => {
    const response = await fetch(`${server.url}/_emulator/events`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reading = readEvents(response, (events) => events.some((e) => e.event === 'reset'));
    const sent = await call(server.url, 'POST', '/v1/messaging', { form: { phone_number: '15555550600', message: 'hi', message_type: 'ARN' } });
    await fetch(`${server.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ type: 'drop', path: '/nowhere' }) });
    await fetch(`${server.url}/_emulator/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: 5_000 }) });
    await fetch(`${server.url}/_emulator/reset`, { method: 'POST' });
    const { events, comments } = await reading;
    expect(comments[0]).toBe(': connected');
    const names = events.map((e) => e.event);
    for (const name of ['journal', 'outbox', 'transaction', 'faults', 'clock', 'reset']) expect(names).toContain(name);
    expect(events.find((e) => e.event === 'outbox')!.data).toMatchObject({ referenceId: sent.body.reference_id, phoneNumber: '15555550600', text: 'hi' });
    expect(events.find((e) => e.event === 'journal')!.data).toMatchObject({ method: 'POST', path: '/v1/messaging', status: 200, verdict: 'ok' });
    expect(events.find((e) => e.event === 'transaction')!.data).toMatchObject({ referenceId: sent.body.reference_id, status: { code: 290 } });
    expect(events.find((e) => e.event === 'clock')!.data).toMatchObject({ offsetMs: 5_000 });
    expect(events.find((e) => e.event === 'reset')!.data).toEqual({});
    // Reads of the control routes are not events of the journal.
    expect(events.filter((e) => e.event === 'journal').map((e) => (e.data as { path: string }).path)).not.toContain('/_emulator/events');
  });

  it('is guarded like every control route', async () => {
    const response = await fetch(`${server.url}/_emulator/events`, { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });

  it('a client that disconnects stops its stream; the others go on; closing the emulator ends them', async () => {
    const own = await startEmulator();
    const first = await fetch(`${own.url}/_emulator/events`);
    const second = await fetch(`${own.url}/_emulator/events`);
    const early = readEvents(first, (events) => events.length >= 1);
    const reading = readEvents(second, () => false);
    await call(own.url, 'POST', '/v1/voice', { form: { phone_number: '15555550601', message: 'hi', message_type: 'ARN' } });
    expect((await early).ended).toBe(false);
    await call(own.url, 'POST', '/v1/voice', { form: { phone_number: '15555550602', message: 'hi', message_type: 'ARN' } });
    await own.close();
    const rest = await reading;
    expect(rest.ended).toBe(true);
    expect(rest.events.map((e) => e.event)).toContain('journal');
  });
});
