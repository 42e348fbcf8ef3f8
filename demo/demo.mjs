// The main job: start the emulator on 127.0.0.1 and drive every operation with @x/client,
// as an application would. Run from the root with `npm run demo`.
import { signRequest } from '@x/auth';
import { AuthenticationError, createClient } from '@x/client';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { verifyCallbacks } from '@x/express';
import { createMemoryReplayStore } from '@x/auth';
import { createOtp } from '@x/otp';
import { verifyApiSender } from '@x/otp/verify-api';
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

const emulator = await startEmulator({ deliveryDelayMs: 300, callbacks: { retryDelaysMs: [200, 400] }, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl }] });
const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: emulator.url });
say(`Emulator on ${emulator.url}, customer ${DEFAULT_CUSTOMER.customerId}`);
say(`Inspector: ${emulator.url}/ (open it in a browser; run with --keep to leave the emulator running after the demo)`);
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

  const settle = () => emulator.emulator.idle();

  step('Voice Verify: the fallback when SMS cannot reach a landline');
  const landline = '15555550005';
  const bySms = await client.verify.sms({ phoneNumber: landline });
  await settle();
  const smsStatus = await client.verify.status(bySms.data.reference_id);
  say(`POST /v1/verify/sms to ...0005 -> ${smsStatus.data.status.code} "${smsStatus.data.status.description}": try a call`);
  const byCall = await client.verify.call({ phoneNumber: landline, ttsMessage: 'Your Acme code is $$CODE$$. Once more: $$CODE$$.' });
  say(`POST /v1/verify/call -> ${byCall.data.status.code} "${byCall.data.status.description}"`);
  const spoken = emulator.emulator.outbox.latest(landline);
  say(`The phone rang and said: "${spoken.text}"`);
  const callChecked = await client.verify.check(byCall.data.reference_id, spoken.code);
  await settle();
  const callStatus2 = await client.verify.status(byCall.data.reference_id);
  say(`GET  /v1/verify/{id}?verify_code=${spoken.code} -> ${callChecked.data.sub_resource}, code_state ${callChecked.data.verify.code_state}; call ${callStatus2.data.status.code} "${callStatus2.data.status.description}"`);
  if (smsStatus.data.status.code !== 222 || callChecked.data.verify.code_state !== 'VALID' || callStatus2.data.status.code !== 100) throw new Error('voice verify fallback did not behave');

  step('Own-code verification, then completion');
  const ownCode = String(100000 + Math.floor(Math.random() * 900000));
  const own = await client.verify.sms({ phoneNumber: '15555550124', verifyCode: ownCode, template: 'Acme: $$CODE$$' });
  const typed = /\d{6}/.exec(emulator.emulator.outbox.latest('15555550124').text)[0];
  say(`We sent our own code; the user typed ${typed}; we compare it ourselves: ${typed === ownCode ? 'match' : 'no match'}`);
  const completed = await client.verify.complete(own.data.reference_id);
  say(`PUT  /v1/verify/completion/{id} -> ${completed.data.status.code} "${completed.data.status.description}"`);
  if (typed !== ownCode || completed.data.status.code !== 1900) throw new Error('completion did not behave');

  step('PhoneID Live and Score: is this number worth a code?');
  const live = await client.phoneId.live('15555550006', { ucid: 'ATCK' });
  say(`GET  /v1/phoneid/live/...0006 -> ${live.data.status.code}: ${live.data.live.subscriber_status}, ${live.data.live.device_status}, ${live.data.live.roaming} (${live.data.live.roaming_country})`);
  const risky = await client.score.lookup('15555550003', { accountLifecycleEvent: 'create' });
  const safe = await client.score.lookup('15555550125', { accountLifecycleEvent: 'create' });
  say(`POST /v1/score/...0003 -> ${risky.data.phone_type.description}, risk ${risky.data.risk.score} ${risky.data.risk.level}: ${risky.data.risk.recommendation}`);
  say(`POST /v1/score/...0125 -> ${safe.data.phone_type.description}, risk ${safe.data.risk.score} ${safe.data.risk.level}: ${safe.data.risk.recommendation}`);
  if (live.data.live.roaming !== 'ROAMING' || risky.data.risk.recommendation !== 'block' || safe.data.risk.recommendation !== 'allow') throw new Error('PhoneID Live / Score did not behave');

  step('Verify API: SMS first, WhatsApp as the fallback');
  const flaky = '15555550001';
  const verification = await client.verifyApi.create({ phoneNumber: flaky, policy: [{ method: 'sms', fallbackTime: 30 }, { method: 'whatsapp' }] });
  say(`POST /verification -> ${verification.data.status.code} "${verification.data.status.description}", state ${verification.data.state}`);
  await sleep(400);
  const progress = await client.verifyApi.get(verification.data.reference_id);
  say(`GET  /verification/{id} -> ${progress.data.inner_methods.map((m) => `${m.method} ${m.state} (${m.err_code})`).join(', ')}`);
  const delivered = emulator.emulator.outbox.latest(flaky);
  say(`The phone received on ${delivered.channel}: "${delivered.text}"`);
  const finalized = await client.verifyApi.finalize(verification.data.reference_id, delivered.code);
  say(`PATCH /verification/{id}/state -> ${finalized.data.status.code} "${finalized.data.status.description}"`);
  if (delivered.channel !== 'whatsapp' || finalized.data.status.code !== 3900) throw new Error('Verify API fallback did not behave');

  step('Bulk SMS to three customers');
  const bulk = await client.messaging.bulk({ recipients: [{ phoneNumber: '15555550126', id: 'cust-1' }, { phoneNumber: '15555550001', id: 'cust-2' }, { phoneNumber: '15555550127', id: 'cust-3' }], template: 'Doors open at 9', sessionId: 'launch-day' });
  say(`POST /v1/verify/bulk_sms -> ${bulk.data.status.code} "${bulk.data.status.description}"; ${emulator.emulator.outbox.list().filter((m) => m.referenceId === bulk.data.reference_id).length} messages in the outbox`);

  step('An inbound SMS: a customer texts STOP to our number');
  const mo = await fetch(`${emulator.url}/_emulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '15555550126', to: '15555559999', text: 'STOP' }) });
  const moBody = await mo.json();
  say(`POST /_emulator/inbound -> HTTP ${mo.status}, reference ${moBody.reference_id}, to ${moBody.callback_url}`);
  if (mo.status !== 202) throw new Error('inbound SMS did not behave');

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
    const kind = payload.sub_resource ?? 'verification';
    const extra = payload.verify
      ? `, verify.code_state ${payload.verify.code_state}`
      : payload.session_id !== undefined
        ? `, session_id ${payload.session_id}`
        : payload.user_response
          ? `: "${payload.user_response.mo_message}" from ${payload.user_response.phone_number}`
          : '';
    const what = payload.status ? `${payload.status.code} "${payload.status.description}"` : `state ${payload.state}`;
    say(`${kind.padEnd(12)} ${payload.reference_id}: ${what}${extra} (verified via ${header})`);
  }
  const kinds = (name) => callbacks.filter(({ payload }) => (payload.sub_resource ?? 'verification') === name);
  const expected = { sms: 3, voice: 1, call: 1, bulk_sms: 3, mo_sms: 1, verification: 1 };
  for (const [kind, count] of Object.entries(expected)) {
    if (kinds(kind).length < count) throw new Error(`expected at least ${count} ${kind} callback(s) at our server, got ${kinds(kind).length}`);
  }
  if (kinds('mo_sms')[0].payload.user_response.mo_message !== 'STOP' || kinds('verification')[0].payload.state !== 'VERIFIED') throw new Error('callbacks did not carry what was sent');
  const forged = await fetch(callbackUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `TSA ${DEFAULT_CUSTOMER.customerId}:${btoa('forged-signature-000000000000')}` },
    body: JSON.stringify({ reference_id: sms.data.reference_id, status: { code: 200, description: 'Delivered to handset', updated_on: 'now' }, errors: [], sub_resource: 'sms' }),
  });
  say(`a forged callback -> HTTP ${forged.status} ${JSON.stringify(await forged.json())}`);
  if (callbacks.length < 3 || forged.status !== 401) throw new Error('callbacks did not behave');

  step('Phone verification with @x/otp: SMS, resend falling back to a call, check; a pumping burst refused; the Verify API as sender');
  const events = [];
  const otp = createOtp({ client, guard: { pumping: { prefix: { minStarts: 10, threshold: 0.8 } } }, onEvent: (e) => events.push(e) }); // the guard's events too
  const flowPhone = '15555550001'; // the emulator's undeliverable SMS number
  const flow = await otp.start({ phoneNumber: flowPhone });
  say(`start  -> ${flow.status} by ${flow.channel}, code valid ${flow.expiresInMs / 1000} s, resend in ${flow.resendInMs / 1000} s`);
  await sleep(500); // the SMS reaches its final status: 207, undeliverable
  const resent = await otp.resend(flow.id);
  say(`resend -> ${resent.status} by ${resent.channel} (${events.filter((e) => e.type === 'fallback').map((e) => `fallback ${e.from} -> ${e.to}: ${e.why}`).join('')}), no cooldown for an undeliverable SMS`);
  const heard = emulator.emulator.outbox.latest(flowPhone);
  say(`The phone heard: "${heard.text.replace(/\d/g, '#')}" (the code is not printed)`);
  const wrongAnswer = await otp.check(flow.id, heard.code === '000000' ? '111111' : '000000');
  const rightAnswer = await otp.check(flow.id, heard.code);
  say(`check a wrong code -> ${wrongAnswer.status} (${wrongAnswer.attemptsLeft} attempts left); the right one -> ${rightAnswer.status}`);
  if (resent.channel !== 'call' || rightAnswer.status !== 'valid' || wrongAnswer.status !== 'invalid') throw new Error('the verification flow did not behave');
  const burst = [];
  for (let i = 0; i < 14; i++) burst.push(await otp.start({ phoneNumber: `4470000005${String(i).padStart(2, '0')}` }));
  const firstRefused = burst.findIndex((r) => r.status === 'refused');
  const pumping = events.find((e) => e.type === 'pumping');
  say(`A bot asks codes for 14 numbers of one range that nobody completes: ${firstRefused} sent, then ${burst.length - firstRefused} refused (${burst[firstRefused]?.reason}, retry in ${Math.round((burst[firstRefused]?.retryAfterMs ?? 0) / 60_000)} min)`);
  say(`event for the logs: ${JSON.stringify(pumping)}`);
  if (firstRefused < 0 || !pumping) throw new Error('the pumping burst was not refused');
  const viaVerifyApi = createOtp({ client, sender: verifyApiSender({ policy: [{ method: 'sms' }, { method: 'whatsapp' }] }) });
  const apiFlow = await viaVerifyApi.start({ phoneNumber: '15555550610' });
  const apiAnswer = await viaVerifyApi.check(apiFlow.id, emulator.emulator.outbox.latest('15555550610').code);
  say(`The same flow on the Verify API (sender: verifyApiSender): start -> ${apiFlow.status} (POST /verification), the right code -> ${apiAnswer.status} (finalized)`);
  if (apiAnswer.status !== 'valid') throw new Error('the flow on the Verify API did not behave');

  step('The request journal (what the emulator saw, in order; also in the inspector)');
  const { entries } = await (await fetch(`${emulator.url}/_emulator/journal?limit=1000`)).json();
  if (!Array.isArray(entries) || entries.length === 0) throw new Error('the journal is empty');
  const lines = entries.map((e) => `${String(e.seq).padStart(4)}  ${e.method.padEnd(6)} ${e.path.padEnd(48)} ${String(e.status).padEnd(4)} ${String(e.serviceCode ?? '').padEnd(7)} ${String(e.verdict).padEnd(20)} ${e.ms} ms`);
  for (const line of lines) say(line);
  const file = new URL('../.ci-out/demo-journal.txt', import.meta.url);
  await import('node:fs').then(({ mkdirSync, writeFileSync }) => {
    mkdirSync(new URL('.', file), { recursive: true });
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  say(`(${entries.length} requests; written to .ci-out/demo-journal.txt)`);

  say('\nDemo finished: every operation behaved as the service specifies.');
} finally {
  if (process.argv.includes('--keep')) {
    say(`\nThe emulator keeps running for the inspector: ${emulator.url}/  (Ctrl+C to stop)`);
  } else {
    await emulator.close();
    receiver.close();
  }
}
