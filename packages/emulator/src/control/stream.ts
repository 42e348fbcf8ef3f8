// GET /_emulator/events: the emulator's events as Server-Sent Events, for the inspector and tools.
import type { EmulatorEvent } from '../state/events.js';
import type { EmulatorContext } from '../state/context.js';

/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
export const PING_MS = 15_000;

/**
 * The most bytes one stream may hold for a reader that does not read (a paused tool, `curl | less`).
 * Past it the stream ends with an error and its queue is let go; EventSource reconnects and the
 * inspector reads the lists again.
 */
export const MAX_QUEUED_BYTES = 1024 * 1024;

const HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });

let encoder: TextEncoder | undefined;
const encode = (text: string) => (encoder ??= new TextEncoder()).encode(text);

/** One event as a Server-Sent Events frame. */
const frame = (event: EmulatorEvent): Uint8Array => encode(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);

/**
 * One stream per client: `event: <type>` and `data: <JSON>` per event (journal, outbox,
 * callback, transaction, faults, clock, reset), `: ping` every 15 s. It ends when the client
 * disconnects (its signal, or the stream cancelled), the emulator closes, or the client leaves
 * more than MAX_QUEUED_BYTES unread. HEAD answers the headers and subscribes to nothing.
 */
export function eventStream(ctx: EmulatorContext, request: Request): Response {
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers: HEADERS });
  const signal = request.signal;
  let stop: (error?: Error) => void = () => undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const write = (bytes: Uint8Array) => {
          if (!open) return;
          try {
            controller.enqueue(bytes);
            if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) stop(new Error(`The reader left more than ${MAX_QUEUED_BYTES} bytes of events unread; the stream ended. Reconnect to read on.`));
          } catch {
            stop();
          }
        };
        const unsubscribe = ctx.events.subscribe((event) => write(frame(event)));
        const ping = setInterval(() => write(encode(': ping\n\n')), PING_MS);
        (ping as { unref?: () => void }).unref?.();
        let forget = () => undefined as void;
        stop = (error?: Error) => {
          if (!open) return;
          open = false;
          unsubscribe();
          forget();
          clearInterval(ping);
          signal.removeEventListener('abort', onAbort);
          try {
            // An error drops what is queued at once; a close lets the reader have it.
            if (error) controller.error(error);
            else controller.close();
          } catch {
            // Already closed or errored by the reader.
          }
        };
        const onAbort = () => stop();
        signal.addEventListener('abort', onAbort, { once: true });
        forget = ctx.onClose(onAbort);
        if (signal.aborted) return stop();
        // The first bytes: the browser's EventSource (and the Node adapter) see the stream open at once.
        write(encode(': connected\nretry: 2000\n\n'));
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: 200, headers: HEADERS });
}
