// Request mocks see the client with default options, and block it: msw's setupServer answers
// POST /v1/messaging, nock.disableNetConnect() stops an unmocked request. A real server on
// 127.0.0.1 counts what really arrived: nothing, in every case. In this process (Vitest, ESM) and
// in child processes on the built packages, by import and by require.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '@x/client';

const SMS = { phoneNumber: '15555551234', message: 'hello', messageType: 'OTP' as const };
const ANSWER = { reference_id: 'A'.repeat(32), status: { code: 290, description: 'Message in progress' } };

let server: Server;
let baseUrl: string;
let arrived = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    arrived++;
    req.resume();
    req.on('end', () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  arrived = 0;
});

describe('msw in this process (Vitest, ESM)', () => {
  it('setupServer answers the default client: the handler sees POST /v1/messaging, the real server nothing', async () => {
    const seen: string[] = [];
    const mocks = setupServer(http.post(`${baseUrl}/v1/messaging`, ({ request }) => (seen.push(`${request.method} ${new URL(request.url).pathname}`), HttpResponse.json(ANSWER))));
    mocks.listen({ onUnhandledRequest: 'error' });
    try {
      const sent = await createClient({ ...DEFAULT_CUSTOMER, baseUrl, retry: false }).messaging.send(SMS);
      expect(sent.data).toEqual(ANSWER);
    } finally {
      mocks.close();
    }
    expect(seen).toEqual(['POST /v1/messaging']);
    expect(arrived).toBe(0);
  });
});

describe.each(['request-mocks.mjs', 'request-mocks.cjs'])('the built package in a project (%s)', (fixture) => {
  const run = (mode: 'msw' | 'nock') =>
    new Promise<{ seen: string[]; code: unknown; cause?: string }>((resolve, reject) => {
      const env = { ...process.env, X_TEST_BASE_URL: baseUrl, X_TEST_CUSTOMER: JSON.stringify(DEFAULT_CUSTOMER) };
      execFile(process.execPath, [fileURLToPath(new URL(`./fixtures/${fixture}`, import.meta.url)), mode], { encoding: 'utf8', env }, (error, stdout, stderr) => {
        if (error || !stdout) reject(new Error(`${fixture} ${mode} failed: ${stderr || error?.message}`));
        else resolve(JSON.parse(stdout));
      });
    });

  it('msw setupServer answers POST /v1/messaging; nothing reaches the real server', async () => {
    expect(await run('msw')).toEqual({ seen: ['POST /v1/messaging'], code: 290 });
    expect(arrived).toBe(0);
  });

  it('nock.disableNetConnect() blocks an unmocked send: a NetworkError, nothing reaches the real server', async () => {
    expect(await run('nock')).toEqual({ seen: [], code: 'network_error', cause: 'ENETUNREACH' });
    expect(arrived).toBe(0);
  });
});
