// A NestJS app (platform-express, rawBody: true) receiving the callbacks the emulator signs and
// sends over HTTP: verified with @x/webhooks over req.rawBody, and with @x/express's middleware.
// Compiled by tsc to CommonJS (Nest's default) and run with node --test.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { createClient } from '@x/client';
import { createEmulator, DEFAULT_CUSTOMER, type Emulator } from '@x/emulator';
import { AppModule } from '../src/app.module';
import { ReceivedCallbacks } from '../src/received';

let app: INestApplication;
let url: string;
let received: ReceivedCallbacks;
let emulator: Emulator;

before(async () => {
  app = await NestFactory.create(AppModule.register(DEFAULT_CUSTOMER), { rawBody: true, logger: false });
  await app.listen(0, '127.0.0.1');
  url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  received = app.get(ReceivedCallbacks);
  emulator = createEmulator();
});
after(async () => {
  emulator.close();
  await app.close();
});

/** Sends an SMS through the emulator with a callback URL on the app, and moves the emulator's clock until its delivery report went out. */
async function smsWithCallback(route: string): Promise<string> {
  const client = createClient({ ...DEFAULT_CUSTOMER, baseUrl: 'http://emulator.local', fetch: emulator.fetch });
  const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'hello', messageType: 'ARN', callbackUrl: `${url}/${route}` });
  await emulator.clock.advance(5 * 60_000); // the delivery settles now; resolves once the app answered its callback
  return data.reference_id;
}

for (const route of ['callbacks', 'express-callbacks']) {
  test(`${route}: the emulator's signed delivery report is verified and handled; a bad signature is refused`, async () => {
    const referenceId = await smsWithCallback(route);
    const attempt = emulator.callbacks.attempts.find((a) => a.referenceId === referenceId);
    assert.ok(attempt, 'the emulator sent no callback');
    assert.equal(attempt.status, 200, `the app answered the emulator's callback with ${attempt.status ?? attempt.error}`);
    const handled = received.payloads.filter((p) => p.route === route);
    assert.deepEqual(handled.map((p) => p.payload.reference_id), [referenceId]);

    // The same bytes with a signature that is not the key's: refused, the handler not called.
    const { body, headers } = attempt;
    const wrong = Buffer.alloc(32).toString('base64');
    const forged = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, /authorization/i.test(name) ? value.replace(/:[^:]*$/, `:${wrong}`) : value]));
    assert.notDeepEqual(forged, headers);
    const refused = await fetch(`${url}/${route}`, { method: 'POST', headers: forged, body });
    assert.equal(refused.status, 401);
    // A body changed under the real signature: refused too.
    const changed = await fetch(`${url}/${route}`, { method: 'POST', headers, body: body.replace(referenceId, '0'.repeat(32)) });
    assert.equal(changed.status, 401);
    assert.equal(received.payloads.filter((p) => p.route === route).length, 1, 'a refused callback reached the handler');
  });
}
