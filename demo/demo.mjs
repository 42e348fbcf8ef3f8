// The main job: start the emulator on 127.0.0.1 and drive every operation with @x/client,
// as an application would. Run from the root with `npm run demo`.
import { signRequest } from '@x/auth';
import { AuthenticationError, createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallbacks } from '@x/express';
import { createMemoryReplayStore } from '@x/auth';
import express from 'express';

const say = (text) => console.log(text);
const step = (title) => console.log(`\n== ${title}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Our application's callback endpoint: verified with @x/express before the handler runs.
const callbacks = [];
const app = express();
app.post('/telesign/callbacks', verifyCallbacks({ ...DEFAULT_CUSTOMER, replayStore: createMemoryReplayStore() }), (req, res) => {
  callbacks.push({ payload: req.callback, header: req.callbackHeader });
  res.sendStatus(200);
});
const receiver = await new Promise((resolve) => {
  const server = app.listen(0, '127.0.0.1', () => resolve(server));
});
const callbackUrl = `http://127.0.0.1:${receiver.address().port}/telesign/callbacks`;

const emulator = await startEmulator({ deliveryDelayMs: 300, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }] });
const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url });
say(`Emulator on ${emulator.url}, customer ${DEFAULT_CUSTOMER.customerId}`);
say(`Callbacks go to ${callbackUrl} (Express + @x/express)`);

try {
  step('Send an SMS and follow it to delivery');
  const sms = await client.messaging.send({ phoneNumber: '+1 555 555 0100', message: 'Your order has shipped', messageType: 'ARN', externalId: 'order-42' });
  say(`POST /v1/messaging -> HTTP ${sms.status}, ${sms.data.status.code} "${sms.data.status.description}", reference ${sms.data.reference_id}`);
  let status = sms;
  while (status.data.status.code === 290) {
    await sleep(100);
    status = await client.messaging.status(sms.data.reference_id);
  }
  say(`GET  /v1/messaging/{id} -> ${status.data.status.code} "${status.data.status.description}" at ${status.data.status.updated_on}`);

  step('Verify a phone number by SMS');
  const phone = '15555550123';
  const started = await client.verify.sms({ phoneNumber: phone, template: 'Your Acme code is $$CODE$$' });
  say(`POST /v1/verify/sms -> ${started.data.status.code} "${started.data.status.description}", code_state ${started.data.verify.code_state}`);
  const outbox = await (await fetch(`${emulator.url}/_emulator/outbox?phone_number=${phone}`)).json();
  const text = outbox.messages.at(-1).text;
  const code = /\d{7}/.exec(text)[0];
  say(`The phone received: "${text}"`);
  const wrong = code === '1234567' ? '7654321' : '1234567';
  const bad = await client.verify.check(started.data.reference_id, wrong);
  say(`GET  /v1/verify/{id}?verify_code=${wrong} -> code_state ${bad.data.verify.code_state}`);
  const good = await client.verify.check(started.data.reference_id, code);
  say(`GET  /v1/verify/{id}?verify_code=${code} -> code_state ${good.data.verify.code_state}`);
  if (good.data.verify.code_state !== 'VALID' || bad.data.verify.code_state !== 'INVALID') throw new Error('verification did not behave');

  step('Look up a phone number (PhoneID)');
  const pid = await client.phoneId.lookup('447700900123', { addons: { contact: {} } });
  const d = pid.data;
  say(`POST /v1/phoneid/447700900123 -> ${d.status.code} "${d.status.description}": ${d.phone_type.description}, ${d.location.country.name}, carrier ${d.carrier.name}, contact ${d.contact.first_name} ${d.contact.last_name}`);

  step('Place a voice call');
  const call = await client.voice.call({ phoneNumber: '15555550006', message: 'Your code is 4 2 4 2', messageType: 'OTP', voice: 'f-en-GB' });
  say(`POST /v1/voice -> ${call.data.status.code} "${call.data.status.description}"`);
  let callStatus = call;
  while (callStatus.data.status.code === 103) {
    await sleep(100);
    callStatus = await client.voice.status(call.data.reference_id);
  }
  say(`GET  /v1/voice/{id} -> ${callStatus.data.status.code} "${callStatus.data.status.description}" (test number ...0006 is always busy)`);

  step('What the service answers to a tampered and to a replayed request');
  const url = `${emulator.url}/v1/messaging`;
  const body = 'phone_number=15555550100&message=Pay%2010%20EUR&message_type=ARN';
  const { headers } = signRequest({ method: 'POST', url, contentType: 'application/x-www-form-urlencoded', body }, DEFAULT_CUSTOMER);
  const tampered = await fetch(url, { method: 'POST', headers, body: body.replace('10', '99') });
  const tamperedBody = await tampered.json();
  say(`tampered body   -> HTTP ${tampered.status}, ${tamperedBody.status.code} "${tamperedBody.status.description}"`);
  const first = await fetch(url, { method: 'POST', headers, body });
  const replay = await fetch(url, { method: 'POST', headers, body });
  const replayBody = await replay.json();
  say(`original        -> HTTP ${first.status}`);
  say(`same, replayed  -> HTTP ${replay.status}, ${replayBody.status.code} "${replayBody.status.description}"`);
  if (tampered.status !== 401 || first.status !== 200 || replay.status !== 401) throw new Error('tamper/replay protection did not behave');

  step('A client whose clock is 20 minutes late');
  const late = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url, now: () => new Date(Date.now() - 20 * 60_000) });
  try {
    await late.messaging.send({ phoneNumber: '15555550100', message: 'x', messageType: 'ARN' });
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    say(`${error.name} (${error.reason}): ${error.message}`);
  }

  step('Signed callbacks received by our Express server');
  await emulator.emulator.idle();
  for (const { payload, header } of callbacks) {
    const extra = payload.verify ? `, verify.code_state ${payload.verify.code_state}` : '';
    say(`${payload.sub_resource.padEnd(5)} ${payload.reference_id}: ${payload.status.code} "${payload.status.description}"${extra} (verified via ${header})`);
  }
  const forged = await fetch(callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `TSA ${DEFAULT_CUSTOMER.customerId}:${btoa('forged-signature-000000000000')}` },
    body: JSON.stringify({ reference_id: sms.data.reference_id, status: { code: 200, description: 'Delivered to handset', updated_on: 'now' }, errors: [], sub_resource: 'sms' }),
  });
  say(`a forged callback -> HTTP ${forged.status} ${JSON.stringify(await forged.json())}`);
  if (callbacks.length < 3 || forged.status !== 401) throw new Error('callbacks did not behave');

  say('\nDemo finished: every operation behaved as the service specifies.');
} finally {
  await emulator.close();
  receiver.close();
}
