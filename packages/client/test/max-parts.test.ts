// maxParts: a message sent in more SMS parts than allowed is a ValidationError, and nothing
// reaches the (real, recording) server on 127.0.0.1; within the limit it is sent as before.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError, ValidationError, analyzeMessage, createClient } from '../src/index.js';
import { MAIN, PHONE } from './operation-samples.js';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([MAIN]);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const client = (maxParts?: number) => createClient({ ...MAIN, baseUrl: server.url, retry: false, ...(maxParts === undefined ? {} : { maxParts }) });
const send = (maxParts: number | undefined, message: string) => client(maxParts).messaging.send({ phoneNumber: PHONE, message, messageType: 'ARN' });

describe('maxParts', () => {
  it('sends a message within the limit: 160 GSM-7 characters in one part', async () => {
    await send(1, 'a'.repeat(160));
    expect(server.requests).toHaveLength(1);
    expect(new URLSearchParams(server.requests[0]!.body).get('message')).toBe('a'.repeat(160));
  });

  it('refuses 161 GSM-7 characters (two parts) with maxParts 1, before anything is sent', async () => {
    const error = await send(1, 'a'.repeat(161)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('message');
    expect((error as Error).message).toMatch(/takes 2 SMS parts in GSM-7, more than maxParts \(1\): shorten it\.$/);
    expect(server.requests).toHaveLength(0);
  });

  it('names the first character that forced UCS-2 and where it is', async () => {
    const message = `${'a'.repeat(69)}’`; // 70 units in UCS-2: one part
    expect(analyzeMessage(message).parts).toBe(1);
    const error = await send(1, `${message}b`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as Error).message).toContain('takes 2 SMS parts in UCS-2');
    expect((error as Error).message).toContain('replace "’" at 69');
    expect(server.requests).toHaveLength(0);
    await send(1, message);
    expect(server.requests).toHaveLength(1);
  });

  it('counts the parts as analyzeMessage does, extension characters as two septets', async () => {
    const message = '€'.repeat(80); // 160 septets
    await send(1, message);
    await expect(send(1, `${message}a`)).rejects.toBeInstanceOf(ValidationError);
    await send(2, `${message}a`);
    expect(server.requests).toHaveLength(2);
  });

  it('without maxParts, any message the service takes is sent', async () => {
    await send(undefined, 'ж'.repeat(1600));
    expect(server.requests).toHaveLength(1);
  });

  it('is a whole number of at least 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '2' as unknown as number]) expect(() => client(bad), String(bad)).toThrow(ConfigurationError);
    expect(() => client(0)).toThrow('maxParts must be a whole number >= 1, got 0.');
  });
});
