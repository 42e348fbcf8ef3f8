// `npm start`: the whole flow on 127.0.0.1 against the emulator (no account needed). The user asks
// for a code on a number whose SMS cannot be delivered, asks again (the code comes by a call), types
// a wrong code, then the right one. Exit 0, or 1 with the reason (after 30 s at the latest).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { createApp } from './app.mjs';

const PHONE = '15555550001'; // the emulator's test number whose SMS is undeliverable (207)
const fail = (reason) => {
  console.error(`FAILED: ${reason}`);
  process.exit(1);
};
setTimeout(() => fail('not finished within 30 s'), 30_000).unref();

const emulator = await startEmulator({ deliveryDelayMs: 200 });
// With your account: createClient() reads X_CUSTOMER_ID and X_API_KEY.
const server = createServer(createApp({ client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url }) })).listen(0, '127.0.0.1');
await once(server, 'listening');
const appUrl = `http://127.0.0.1:${server.address().port}`;
console.log(`Express app on ${appUrl}, emulator on ${emulator.url}`);

const post = async (path, body) => {
  const response = await fetch(`${appUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
};

try {
  const started = await post('/otp/start', { phoneNumber: `+${PHONE}` });
  if (started.status !== 201) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
  console.log(`1. The user asks for a code: sent by ${started.body.channel}`);
  await new Promise((resolve) => setTimeout(resolve, 400)); // the SMS reaches its final status: undeliverable
  const resent = await post(`/otp/${started.body.flowId}/resend`, {});
  if (resent.status !== 201 || resent.body.channel !== 'call') throw new Error(`resend answered ${resent.status}: ${JSON.stringify(resent.body)}`);
  console.log('2. Nothing arrived, the user asks again: the SMS was undeliverable, so the code comes by a call');
  const code = emulator.emulator.outbox.latest(PHONE)?.code;
  const wrong = await post(`/otp/${started.body.flowId}/check`, { code: code === '000000' ? '111111' : '000000' });
  if (wrong.status !== 400) throw new Error(`a wrong code answered ${wrong.status}`);
  console.log(`3. A wrong code: 400, ${wrong.body.attemptsLeft} attempts left`);
  const right = await post(`/otp/${started.body.flowId}/check`, { code });
  if (right.status !== 200) throw new Error(`the right code answered ${right.status}: ${JSON.stringify(right.body)}`);
  console.log(`4. The right code: signed in as ${right.body.signedIn}`);
  console.log('Done.');
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
} finally {
  server.close();
  await emulator.close();
}
