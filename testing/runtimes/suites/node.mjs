// The Node suite, run in Node 20, 22 and 24 (bundled by testing/runtimes/harness.mjs): the Node-only entries of the
// BUILT packages together: the emulator's server, createNodeFetch + nodeMac, and native callback
// verification of a callback the emulator really sends. Returns [name, ok, detail] rows.
import { createServer } from 'node:http';
import { nodeMac } from '@x/auth/node';
import { createClient } from '@x/client';
import { createNodeFetch } from '@x/client/node';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallback } from '@x/webhooks';

export const names = [
  '@x/client/node + @x/auth/node against the emulator server',
  '@x/webhooks with mac: nodeMac verifies the callback the emulator sent',
];

export async function check() {
  const rows = [];
  const received = [];
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const result = await verifyCallback({ body: Buffer.concat(chunks), headers: req.headers }, { ...DEFAULT_CUSTOMER, mac: nodeMac });
      received.push(result);
      res.writeHead(result.ok ? 200 : 401).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const emulator = await startEmulator({ deliveryDelayMs: 5, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `http://127.0.0.1:${receiver.address().port}/cb` }] });
  try {
    const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, fetch: createNodeFetch(), mac: nodeMac });
    const sent = await client.messaging.send({ phoneNumber: '15555550900', message: 'x', messageType: 'ARN' });
    rows.push(['@x/client/node + @x/auth/node against the emulator server', sent.status === 200 && sent.data.status.code === 290, '']);
    await emulator.emulator.idle();
    rows.push(['@x/webhooks with mac: nodeMac verifies the callback the emulator sent', received.length === 1 && received[0].ok && received[0].payload.reference_id === sent.data.reference_id, '']);
  } finally {
    await emulator.close();
    receiver.close();
  }
  return rows;
}
