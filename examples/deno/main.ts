// `deno task start`: the whole flow on 127.0.0.1 against the emulator (the service, locally, running
// inside this process; no account needed). It starts the emulator and the app, then plays the user:
// asks the app for a code, reads it on the "phone" (the emulator's outbox), types it, and waits until
// the app has received and verified the signed delivery report (sent over HTTP to Deno.serve).
// Exit 0, or 1 with the reason (after 30 s at the latest).
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER } from '@x/emulator';
import { createApp, type Delivery } from './app.ts';

const PHONE = '15555550100';
const fail = (reason: unknown): never => {
  console.error(`FAILED: ${reason}`);
  Deno.exit(1);
};
Deno.unrefTimer(setTimeout(() => fail('not finished within 30 s'), 30_000));

// 1. The app's port first: the emulator's account sends its callbacks there. The app comes in step 3.
const app = Promise.withResolvers<ReturnType<typeof createApp>>();
const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen() {} }, async (request) => (await app.promise).fetch(request));
const appUrl = `http://127.0.0.1:${server.addr.port}`;

// 2. The emulator, in-process (it runs in Deno as it is), with its public test account
// (DEFAULT_CUSTOMER: never use it anywhere else).
const emulator = createEmulator({ deliveryDelayMs: 300, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `${appUrl}/callbacks` }] });

// 3. The app, its client talking to the emulator. With your account: createClient() reads
// X_CUSTOMER_ID and X_API_KEY (run with --allow-env), and `Deno.serve(app.fetch)` serves it.
const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
app.resolve(createApp({ client, credentials: DEFAULT_CUSTOMER }));
console.log(`Hono app on Deno ${Deno.version.deno} at ${appUrl}, emulator in-process`);

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${appUrl}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

try {
  const { referenceId } = await call<{ referenceId: string }>('POST', '/verifications', { phoneNumber: PHONE });
  console.log(`1. The user asks for a code: verification ${referenceId} sent by SMS`);

  const sms = emulator.outbox.latest(PHONE);
  if (!sms?.code) throw new Error('nothing reached the phone');
  console.log(`2. Their phone receives "${sms.text}"`);

  const { codeState } = await call<{ codeState: string }>('POST', `/verifications/${referenceId}/check`, { code: sms.code });
  console.log(`3. They type ${sms.code}: ${codeState}`);
  if (codeState !== 'VALID') throw new Error(`the right code was ${codeState}`);

  let delivery: Delivery | null = null;
  while (!delivery) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ({ delivery } = await call<{ delivery: Delivery | null }>('GET', `/verifications/${referenceId}`));
  }
  console.log(`4. The service's callback, signature verified (${delivery.header} header): ${delivery.status?.code} "${delivery.status?.description}", code ${delivery.codeState}`);

  const forged = await fetch(`${appUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `TSA ${DEFAULT_CUSTOMER.customerId}:Zm9yZ2VkIHNpZ25hdHVyZQ==` },
    body: JSON.stringify({ reference_id: referenceId, status: { code: 200, description: 'Delivered to handset', updated_on: new Date().toISOString() }, errors: [], sub_resource: 'sms' }),
  });
  console.log(`5. A forged callback is refused: ${forged.status} ${await forged.text()}`);
  if (forged.status !== 401) throw new Error(`a forged callback got ${forged.status}, not 401`);

  console.log('Done: verified by SMS, callback received and verified.');
} catch (error) {
  fail(error instanceof Error ? error.stack : error);
} finally {
  emulator.close();
  await server.shutdown();
}
