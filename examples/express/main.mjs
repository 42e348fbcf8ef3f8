// `npm start`: the whole flow on 127.0.0.1 against the emulator (the service, locally; no account
// needed). It starts the emulator and the app, then plays the user: asks the app for a code, reads
// it on the "phone" (the emulator's outbox), types it, and waits until the app has received and
// verified the signed delivery report. Exit 0, or 1 with the reason (after 30 s at the latest).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createApp } from './app.mjs';
import { playTheUser } from '../story.mjs';

const fail = (reason) => {
  console.error(`FAILED: ${reason}`);
  process.exit(1);
};
setTimeout(() => fail('not finished within 30 s'), 30_000).unref();

// 1. The app's port first: the emulator's account sends its callbacks there.
const server = createServer().listen(0, '127.0.0.1');
await once(server, 'listening');
const appUrl = `http://127.0.0.1:${server.address().port}`;

// 2. The emulator, with its public test account (DEFAULT_CUSTOMER: never use it anywhere else).
const emulator = await startEmulator({ deliveryDelayMs: 300, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `${appUrl}/callbacks` }] });

// 3. The app on that port. With your account: createClient() reads X_CUSTOMER_ID and X_API_KEY.
const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url });
server.on('request', createApp({ client, credentials: DEFAULT_CUSTOMER }));
console.log(`Express app on ${appUrl}, emulator on ${emulator.url}`);

try {
  await playTheUser({ appUrl, emulator: emulator.url, customerId: DEFAULT_CUSTOMER.customerId });
} catch (error) {
  fail(error?.stack ?? error);
} finally {
  server.closeAllConnections();
  server.close();
  await emulator.close();
}
