// The default sender on Node: one attempt straight on node:http(s), keep-alive, no Request,
// Response, Headers or AbortController objects. Same guarantees as the fetch path: redirects are
// answered, never followed; no more than `maxResponseBytes` is read (past it, or past an announced
// Content-Length, the socket is destroyed and never reused); the timeout (one timer) and the
// caller's signal destroy the request; network errors keep their codes and addresses.
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { ConfigurationError } from '../errors.js';
import type { Answer, Exchange, Outgoing, Sender } from '../transport/sender.js';
import { resolveLocation } from '../transport/redirect.js';
import { createConnect, type ConnectOptions } from './connect.js';

/** node:zlib, loaded with the first coded answer (the service's answers are not coded). */
const zlib = () => process.getBuiltinModule('node:zlib');

/** A decoder for the codings the global fetch decodes; others are read as they are. */
function decoderOf(coding: string | undefined): Transform | undefined {
  switch (coding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib().createGunzip();
    case 'deflate':
      return zlib().createInflate();
    case 'br':
      return zlib().createBrotliDecompress();
    default:
      return undefined;
  }
}

/** The status and headers of a Node answer; the WHATWG Headers is built only when asked for. */
class NodeAnswer implements Answer {
  readonly status: number;
  // The header lists only, not the message: a result kept by the caller keeps no socket or request alive.
  private readonly parsed: IncomingHttpHeaders;
  private readonly raw: string[];
  private built: Headers | undefined;
  constructor(res: IncomingMessage) {
    this.status = res.statusCode ?? 0;
    this.parsed = res.headers;
    this.raw = res.rawHeaders;
  }
  get(name: string): string | null {
    const value = this.parsed[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }
  headers(): Headers {
    if (this.built) return this.built;
    const headers = new Headers();
    for (let i = 0; i < this.raw.length; i += 2) headers.append(this.raw[i]!, this.raw[i + 1]!);
    return (this.built = headers);
  }
}

/**
 * A sender with its own keep-alive pool (and proxy route, read from the options and the
 * environment once, now). It rejects only with a ConfigurationError, before anything is sent
 * (a proxy applies and its agent is not installed).
 */
export function createNodeSender(options: ConnectOptions = {}): Sender {
  const connect = createConnect(options);

  return (out: Outgoing) =>
    new Promise<Exchange>((resolve, reject) => {
      const { signal, method, url, maxResponseBytes: cap } = out;
      if (signal?.aborted) return resolve({ kind: 'aborted', reason: signal.reason });
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let req: ClientRequest | undefined;
      const finish = (exchange: Exchange, destroy: boolean) => {
        if (settled) return;
        settled = true;
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        // A socket in an unknown state (timeout, abort, cap, redirect) is destroyed, never pooled.
        if (destroy) req?.destroy();
        resolve(exchange);
      };
      const onAbort = () => finish({ kind: 'aborted', reason: signal!.reason }, true);

      const onResponse = (res: IncomingMessage) => {
        const answer = new NodeAnswer(res);
        const { status } = answer;
        if (status >= 300 && status < 400) {
          return finish({ kind: 'redirect', answer, redirect: { status, location: resolveLocation(answer.get('location'), url), followed: false } }, true);
        }
        const decoder = method === 'HEAD' ? undefined : decoderOf(answer.get('content-encoding') ?? undefined);
        // A HEAD answer announces the length of a body it does not carry; a coded body's length says nothing of what it inflates to.
        if (method !== 'HEAD' && !decoder && Number(answer.get('content-length') ?? 0) > cap) return finish({ kind: 'too_large', answer, status }, true);
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = decoder ? res.pipe(decoder) : res;
        stream.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > cap) {
            decoder?.destroy();
            return finish({ kind: 'too_large', answer, status }, true);
          }
          chunks.push(chunk);
        });
        stream.on('end', () => {
          const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
          finish({ kind: 'answer', answer, text }, false);
        });
        const fail = (error: unknown) => finish({ kind: 'failed', error }, true);
        res.on('error', fail);
        decoder?.on('error', fail);
        // The connection closed before the whole body came.
        res.on('close', () => {
          if (!res.complete) fail(Object.assign(new Error('the connection closed before the whole answer arrived'), { code: 'ECONNRESET' }));
        });
      };

      try {
        req = connect(url, { method, headers: out.headers, contentLength: out.body === undefined ? undefined : Buffer.byteLength(out.body) }, onResponse, (error) => finish({ kind: 'failed', error }, true));
      } catch (error) {
        if (error instanceof ConfigurationError) return reject(error);
        // Refused before anything was sent (a header value Node will not write, say).
        return finish({ kind: 'failed', error }, false);
      }
      req.on('error', (error) => finish({ kind: 'failed', error }, true));
      if (out.timeoutMs > 0) timer = setTimeout(() => finish({ kind: 'timeout' }, true), out.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      req.end(out.body);
    });
}
