// `bun run start`: the whole flow on 127.0.0.1 against the emulator (the service, locally, running
// inside this process; no account needed). It starts the emulator and the app, then plays the user:
// asks the app for a code, reads it on the "phone" (the emulator's outbox), types it, and waits until
// the app has received and verified the signed delivery report (sent over HTTP to Bun.serve).
// Exit 0, or 1 with the reason (after 30 s at the latest).
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { createApp } from './app.ts';
import { playTheUser } from '../story.mjs';

const fail = (reason: unknown): never => {
  console.error(`FAILED: ${reason}`);
  process.exit(1);
};
setTimeout(() => fail('not finished within 30 s'), 30_000).unref();

// 1. The app's port first: the emulator's account sends its callbacks there. The app comes in step 3.
const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('starting', { status: 503 }) });
const appUrl = `http://127.0.0.1:${server.port}`;

// 2. The emulator, in-process (it runs in Bun as it is), with its public test account
// (DEFAULT_CUSTOMER: never use it anywhere else).
const emulator = createEmulator({ deliveryDelayMs: 300, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `${appUrl}/callbacks` }] });

// 3. The app, its client talking to the emulator. With your account: createClient() reads
// X_CUSTOMER_ID and X_API_KEY (Bun.env), and `Bun.serve({ fetch: app.fetch })` serves it.
const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
server.reload({ fetch: createApp({ client, credentials: DEFAULT_CUSTOMER }).fetch });
console.log(`Hono app on Bun ${Bun.version} at ${appUrl}, emulator in-process`);

try {
  await playTheUser({ appUrl, emulator, customerId: DEFAULT_CUSTOMER.customerId });
} catch (error) {
  fail(error instanceof Error ? error.stack : error);
} finally {
  emulator.close();
  server.stop(true);
}
