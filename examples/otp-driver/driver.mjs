// The user of the sign-in examples, shared by every framework's `npm start` (otp-express,
// otp-fastify, otp-hono): it starts the emulator and a node:http server on 127.0.0.1, lets the
// example mount its app on that server, then plays the user over HTTP. The user asks for a code on
// a number whose SMS cannot be delivered, asks again (the code comes by a call), asks a third time
// at once (429 with Retry-After: the cooldown), types a wrong code, then the right one; then a start
// with a locale that is not xx-XX (left out by the app). Exit 0, or 1 with the reason (after 30 s).
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';

const PHONE = '15555550001'; // the emulator's test number whose SMS is undeliverable (207)

/**
 * @param {string} framework  its name, for the story
 * @param {(parts: { client: import('@x/client').Client, server: import('node:http').Server }) => unknown} mount
 *   puts the app on `server` (a listening node:http server); may answer a function that closes the app
 */
export async function playSignIn(framework, mount) {
  const fail = (reason) => {
    console.error(`FAILED: ${reason}`);
    process.exit(1);
  };
  setTimeout(() => fail('not finished within 30 s'), 30_000).unref();

  const emulator = await startEmulator({ deliveryDelayMs: 200 });
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  // With your account: createClient() reads X_CUSTOMER_ID and X_API_KEY.
  const close = await mount({ client: createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url }), server });
  const appUrl = `http://127.0.0.1:${server.address().port}`;
  console.log(`${framework} app on ${appUrl}, emulator on ${emulator.url}`);

  const post = async (path, body) => {
    const response = await fetch(`${appUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    let answer;
    try {
      answer = JSON.parse(text);
    } catch {
      throw new Error(`POST ${path} answered ${response.status} with no JSON: ${text.slice(0, 200)}`);
    }
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: answer };
  };
  const expect = (answer, status, what) => {
    if (answer.status !== status) throw new Error(`${what} answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  try {
    const started = expect(await post('/otp/start', { phoneNumber: `+${PHONE}` }), 201, 'start');
    console.log(`1. The user asks for a code: sent by ${started.channel}`);
    await new Promise((resolve) => setTimeout(resolve, 400)); // the SMS reaches its final status: undeliverable
    const resent = expect(await post(`/otp/${started.flowId}/resend`, {}), 201, 'resend');
    if (resent.channel !== 'call') throw new Error(`the resend went by ${resent.channel}, not by a call`);
    console.log('2. Nothing arrived, the user asks again: the SMS was undeliverable, so the code comes by a call');
    const again = await post(`/otp/${started.flowId}/resend`, {});
    expect(again, 429, 'a resend at once');
    if (again.body.reason !== 'resend_cooldown' || !(Number(again.retryAfter) > 0)) throw new Error(`a resend at once: ${JSON.stringify(again)}`);
    console.log(`3. Asking once more at once: 429 ${again.body.reason}, Retry-After ${again.retryAfter} s`);
    const code = emulator.emulator.outbox.latest(PHONE)?.code;
    const wrong = expect(await post(`/otp/${started.flowId}/check`, { code: code === '000000' ? '111111' : '000000' }), 400, 'a wrong code');
    console.log(`4. A wrong code: 400, ${wrong.attemptsLeft} attempts left`);
    const right = expect(await post(`/otp/${started.flowId}/check`, { code }), 200, 'the right code');
    console.log(`5. The right code: signed in as ${right.signedIn}`);
    const junk = expect(await post('/otp/start', { phoneNumber: '+1 555 555 0100', locale: 'english' }), 201, 'a start with a locale the flow cannot read');
    console.log(`6. A locale the flow cannot read ("english") falls back to the service's default: sent by ${junk.channel}`);
    console.log('Done.');
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  } finally {
    if (typeof close === 'function') await close();
    server.closeAllConnections();
    server.close();
    await emulator.close();
  }
}
