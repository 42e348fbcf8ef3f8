// GET /_emulator/events: the emulator's events as Server-Sent Events, for the inspector and tools.
import type { EmulatorContext } from '../state/context.js';

/** A comment line this often keeps proxies and idle timeouts from closing the stream. */
export const PING_MS = 15_000;

const encoder = new TextEncoder();

/**
 * One stream per client: `event: <type>` and `data: <JSON>` per event (journal, outbox,
 * callback, transaction, faults, clock, reset), `: ping` every 15 s. It ends when the client
 * disconnects (its signal, or the stream cancelled) or the emulator closes.
 */
export function eventStream(ctx: EmulatorContext, signal: AbortSignal): Response {
  let stop = () => undefined as void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const write = (text: string) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const unsubscribe = ctx.events.subscribe((event) => write(`event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`));
      const ping = setInterval(() => write(': ping\n\n'), PING_MS);
      (ping as { unref?: () => void }).unref?.();
      let forget = () => undefined as void;
      stop = () => {
        if (!open) return;
        open = false;
        unsubscribe();
        forget();
        clearInterval(ping);
        signal.removeEventListener('abort', stop);
        try {
          controller.close();
        } catch {
          // Already closed or errored by the reader.
        }
      };
      signal.addEventListener('abort', stop, { once: true });
      forget = ctx.onClose(stop);
      if (signal.aborted) return stop();
      // The first bytes: the browser's EventSource (and the Node adapter) see the stream open at once.
      write(': connected\nretry: 2000\n\n');
    },
    cancel() {
      stop();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
}
