// The callback receiver and its queue workers: what you deploy. The HTTP route verifies each
// callback, hands it to BullMQ (the callback's identity as the job id: a duplicate adds nothing)
// and answers 200 at once; a BullMQ worker runs the router on the verified payload and completes
// the job only once the handler succeeded.
import { createServer } from 'node:http';
import { Queue, Worker } from 'bullmq';
import { handleCallback } from '@x/webhooks';
import { enqueueCallbacks, processCallbacks } from '@x/webhooks/queue';
import { createMemoryStateStore, createRouter } from '@x/webhooks/router';

/** `onReport(referenceId, outcome)` is your handler (update the order in your database). */
export function startReceiver({ credentials, connection, onReport }) {
  const queue = new Queue('sms-callbacks', { connection });
  const enqueue = enqueueCallbacks(queue);

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/callbacks') return void res.writeHead(404).end();
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    try {
      const handled = await handleCallback({ body: new Uint8Array(Buffer.concat(chunks)), headers: req.headers }, credentials, enqueue);
      if (handled.ok) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      res.writeHead(handled.answer.status, { 'content-type': 'application/json', ...handled.answer.headers }).end(JSON.stringify(handled.answer.body));
    } catch {
      res.writeHead(503).end(); // the queue's Redis is down: the service sends it again
    }
  });

  // Several workers need a shared state store (createRedisStateStore of @x/redis).
  const router = createRouter({ store: createMemoryStateStore() })
    .on('sms.delivered', (sms) => onReport(sms.reference_id, 'delivered'))
    .on('sms.failed', (sms) => onReport(sms.reference_id, 'failed'));
  const worker = new Worker('sms-callbacks', processCallbacks(router), { connection, concurrency: 8 });

  return {
    server,
    async close() {
      server.closeAllConnections();
      server.close();
      await worker.close();
      await queue.close();
    },
  };
}
