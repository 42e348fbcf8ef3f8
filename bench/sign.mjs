// Signatures per second, one process, same request for all: @x/auth's pure signer (the default),
// its signer with node:crypto (nodeMac), the one-off signRequest, the official Node client's header
// generation (telesignsdk), and the physical floor: node:crypto HMAC over the same string to sign
// with the date formatted once a second (as the signer does) and a fresh randomUUID nonce.
// Every variant sends the official layout (Date header) so the strings to sign are identical.
import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createSigner, signRequest } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { compare, loop } from './harness.mjs';

const require = createRequire(import.meta.url);
const RestClient = require('telesignsdk/src/RestClient.js');

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const body = 'phone_number=15555551234&message=Your%20code%20is%20123456&message_type=OTP';
const form = 'application/x-www-form-urlencoded';
const request = { method: 'POST', url: 'https://rest-api.telesign.com/v1/messaging', contentType: form, body };
const options = { dateHeader: 'date' };
const pure = createSigner(credentials, options);
const native = createSigner(credentials, { ...options, mac: nodeMac });
const key = Buffer.from(credentials.apiKey, 'base64');

let second = -1;
let date = '';
function floor() {
  const now = Date.now();
  if (Math.floor(now / 1000) !== second) {
    second = Math.floor(now / 1000);
    date = new Date(now).toUTCString();
  }
  const sts = `POST\n${form}\n${date}\nx-ts-auth-method:HMAC-SHA256\nx-ts-nonce:${randomUUID()}\n${body}\n/v1/messaging`;
  return createHmac('sha256', key).update(sts).digest('base64');
}

// Same string to sign, same signature: the variants do the same work.
const fixed = { date: 'Wed, 14 Dec 2016 18:20:12 GMT', nonce: '712cb7f8-9b4c-4a46-8a6b-b1c1bd1e1a0a' };
const official = RestClient.generateTeleSignHeaders(credentials.customerId, credentials.apiKey, 'POST', '/v1/messaging', form, body, fixed.date, fixed.nonce);
for (const signer of [pure, native]) {
  const ours = signer.sign(request, fixed).headers.authorization;
  if (ours !== official.Authorization) throw new Error(`signatures differ: ${ours} vs ${official.Authorization}`);
}

await compare({
  id: 'sign',
  title: 'Signing one SMS request (HMAC-SHA256, Date header, fresh nonce)',
  unit: 'signatures/s',
  ms: 300,
  rounds: 9,
  variants: [
    { name: '@x/auth createSigner().sign, pure (default)', measure: loop(() => pure.sign(request)) },
    { name: '@x/auth createSigner({ mac: nodeMac }).sign', measure: loop(() => native.sign(request)) },
    { name: '@x/auth signRequest (one-off), pure', measure: loop(() => signRequest(request, credentials, options)) },
    { name: 'telesignsdk generateTeleSignHeaders', role: 'official', measure: loop(() => RestClient.generateTeleSignHeaders(credentials.customerId, credentials.apiKey, 'POST', '/v1/messaging', form, body)) },
    { name: 'node:crypto HMAC, same string, date cached', role: 'floor', measure: loop(floor) },
  ],
});
