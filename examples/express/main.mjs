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

const PHONE = '15555550100';
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

async function call(method, path, body) {
  const response = await fetch(`${appUrl}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

try {
  const { referenceId } = await call('POST', '/verifications', { phoneNumber: PHONE });
  console.log(`1. The user asks for a code: verification ${referenceId} sent by SMS`);

  const { messages } = await (await fetch(`${emulator.url}/_emulator/outbox?phone_number=${PHONE}`)).json();
  const sms = messages.at(-1);
  console.log(`2. Their phone receives "${sms.text}"`);

  const { codeState } = await call('POST', `/verifications/${referenceId}/check`, { code: sms.code });
  console.log(`3. They type ${sms.code}: ${codeState}`);
  if (codeState !== 'VALID') throw new Error(`the right code was ${codeState}`);

  let delivery = null;
  while (!delivery) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ({ delivery } = await call('GET', `/verifications/${referenceId}`));
  }
  console.log(`4. The service's callback, signature verified (${delivery.header} header): ${delivery.status.code} "${delivery.status.description}", code ${delivery.codeState}`);

  const forged = await fetch(`${appUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `TSA ${DEFAULT_CUSTOMER.customerId}:Zm9yZ2VkIHNpZ25hdHVyZQ==` },
    body: JSON.stringify({ reference_id: referenceId, status: { code: 200, description: 'Delivered to handset', updated_on: new Date().toISOString() }, errors: [], sub_resource: 'sms' }),
  });
  console.log(`5. A forged callback is refused: ${forged.status} ${await forged.text()}`);
  if (forged.status !== 401) throw new Error(`a forged callback got ${forged.status}, not 401`);

  console.log('Done: verified by SMS, callback received and verified.');
} catch (error) {
  fail(error?.stack ?? error);
} finally {
  server.closeAllConnections();
  server.close();
  await emulator.close();
}
