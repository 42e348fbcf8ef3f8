// A real HTTP server on 127.0.0.1 that records every request as it arrived (method, path, query,
// content type, raw body) and checks its Authorization with @x/auth's verifyRequest (digest, or
// Basic). Its answers are scripted: a status and body, or a connection reset.
import { createMemoryReplayStore, verifyRequest, type Credentials, type VerifyResult } from '@x/auth';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  auth: VerifyResult;
}

/** A status and body (after `delayMs`, when given), or a connection reset once the request arrived. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number } | 'reset';

export interface RecordingServer {
  url: string;
  requests: Recorded[];
  /** Answers for the next requests, in order; afterwards 200 with `defaultBody`. */
  script(...answers: Answer[]): void;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_BODY = { reference_id: '0123456789ABCDEF0123456789ABCDEF', status: { code: 200, description: 'OK', updated_on: '2024-01-01T00:00:00Z' }, errors: [] };

export async function startRecordingServer(accounts: Credentials[]): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  let answers: Answer[] = [];
  const replayStore = createMemoryReplayStore();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const auth = await verifyRequest(
        { method: req.method ?? '', url: url.href, headers: req.headers, body },
        { credentials: (id) => accounts.find((a) => a.customerId === id), allowBasic: true, replayStore },
      );
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        contentType: req.headers['content-type'],
        body,
        headers: { ...req.headers },
        auth,
      });
      const answer = answers.shift() ?? { status: 200, body: DEFAULT_BODY };
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      const respond = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body ?? DEFAULT_BODY));
      };
      if (!answer.delayMs) return respond();
      const timer = setTimeout(respond, answer.delayMs);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...next) => {
      answers = next;
    },
    reset: () => {
      requests.length = 0;
      answers = [];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
