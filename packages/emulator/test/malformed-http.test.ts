// Malformed HTTP that Node's parser refuses before any handler runs (Content-Length with
// Transfer-Encoding, a header line without a colon, headers over 16 KiB, a broken request line) is
// answered in JSON like every other answer of the service (the positive family's shape, code 11000),
// with 431 for headers too large, never echoing what was sent. Sent over raw sockets to a real server.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../src/node.js';

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ port: 0, logger: { error: () => undefined, warn: () => undefined } });
});
afterAll(() => server.close());

const SECRET = 'TSA 00000000-0000-4000-8000-000000000001:c2VjcmV0LXNpZ25hdHVyZQ==';

/** Writes raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const end = answer.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = answer.slice(0, end < 0 ? answer.length : end).split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: end < 0 ? '' : answer.slice(end + 4) });
    });
    socket.end(text);
  });
}

function expectJsonError(answer: { status: number; headers: Record<string, string>; body: string }, status: number) {
  expect(answer.status, answer.body).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(Number(answer.headers['content-length'])).toBe(new TextEncoder().encode(answer.body).length);
  const body = JSON.parse(answer.body) as { status: { code: number; description: string; updated_on: string } };
  expect(body.status.code).toBe(11000);
  expect(body.status.description).toMatch(/^Invalid value for parameter|request/i);
  expect(answer.body).not.toContain('c2VjcmV0');
  return body;
}

describe('malformed HTTP is answered in JSON', () => {
  it('Content-Length together with Transfer-Encoding: 400 with a JSON body', async () => {
    const answer = await raw(`POST /v1/messaging HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${SECRET}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    const body = expectJsonError(answer, 400);
    expect(body.status.description).toMatch(/Content-Length.*Transfer-Encoding/);
  });

  it('a header line without a colon: 400 with a JSON body', async () => {
    const answer = await raw(`GET /v1/voice HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${SECRET}\r\nthis line has no colon\r\n\r\n`);
    expectJsonError(answer, 400);
  });

  it('headers over 16 KiB: 431 with a JSON body', async () => {
    const answer = await raw(`GET /v1/voice HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${SECRET}\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`);
    const body = expectJsonError(answer, 431);
    expect(body.status.description).toMatch(/16 KiB/);
  });

  it('a request line that is not HTTP: 400 with a JSON body', async () => {
    const answer = await raw('NOT A REQUEST\r\n\r\n');
    expectJsonError(answer, 400);
  });

  it('a well-formed request on the same server is still answered as before', async () => {
    const answer = await raw('GET /v1/voice HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).status.code).toBeTypeOf('number');
  });
});
