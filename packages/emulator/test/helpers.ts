import { basicAuthorization, signRequest, type SignOptions } from '@x/auth';
import { DEFAULT_CUSTOMER } from '../src/index.js';

export const customer = DEFAULT_CUSTOMER;

/** Signs and sends a request with @x/auth, as a client would. */
export async function call(
  base: string,
  method: string,
  path: string,
  init: { form?: Record<string, string>; json?: unknown; options?: SignOptions; credentials?: { customerId: string; apiKey: string }; headers?: Record<string, string> } = {},
) {
  const body = init.form ? new URLSearchParams(init.form).toString() : init.json !== undefined ? JSON.stringify(init.json) : undefined;
  const contentType = init.form ? 'application/x-www-form-urlencoded' : init.json !== undefined ? 'application/json' : undefined;
  const url = new URL(path, base);
  const { headers } = signRequest({ method, url, ...(contentType ? { contentType } : {}), ...(body ? { body } : {}) }, init.credentials ?? customer, init.options);
  const response = await fetch(url, { method, headers: { ...headers, ...init.headers }, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

export interface LocalInit {
  form?: Record<string, string>;
  json?: unknown;
  /** A raw body with its content type. */
  body?: string;
  contentType?: string;
  /** Send the form content type with an empty body (as the client's PUT). */
  emptyForm?: boolean;
  basic?: boolean;
  credentials?: { customerId: string; apiKey: string };
}

/** Signs (or Basic-authenticates) and sends a request to an emulator in-process; the JSON answer. */
export async function local(emulator: { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> }, method: string, path: string, init: LocalInit = {}) {
  const body = init.body ?? (init.form ? new URLSearchParams(init.form).toString() : init.json !== undefined ? JSON.stringify(init.json) : undefined);
  const contentType = init.contentType ?? (init.form || init.emptyForm ? 'application/x-www-form-urlencoded' : init.json !== undefined ? 'application/json' : undefined);
  const url = `http://emulator.test${path}`;
  const credentials = init.credentials ?? customer;
  const headers: Record<string, string> = init.basic
    ? { authorization: basicAuthorization(credentials), ...(contentType ? { 'content-type': contentType } : {}) }
    : signRequest({ method, url, ...(contentType ? { contentType } : {}), ...(body ? { body } : {}) }, credentials).headers;
  const response = await emulator.fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A callback as a recorder got it: its headers and its body as text. */
export interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A callback endpoint on 127.0.0.1 (a real HTTP server) that records each request's body and
 * headers in `received` (yours, or a new array) and answers with the status `status()` gives (200
 * by default; a test that fails some deliveries answers 503 from it). Resolves to its URL (`path`
 * on a free port), the records and `close`.
 */
export async function startCallbackRecorder(options: { received?: Received[]; status?: () => number; path?: string } = {}) {
  const { received = [], status = () => 200, path = '/cb' } = options;
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on('data', (c: Uint8Array) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}${path}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
