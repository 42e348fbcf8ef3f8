// Signatures per second, one process, same request for all: @x/auth's pure signer (@noble/hashes,
// the default of browsers and workers), its signer with node:crypto (nodeMac, the default on Node),
// the one-off signRequest, the official Node client's header generation (telesignsdk), and the
// physical floor: node:crypto HMAC over the same string to sign with the date formatted once a
// second (as the signer does) and a fresh randomUUID nonce. Every variant sends the official layout
// (Date header) so the strings to sign are identical.
// The process runs under the `browser` export condition (it restarts itself so), so that @x/auth's
// default is its pure HMAC; nodeMac is node:crypto whatever the conditions.
import { spawnSync } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// `node sign.mjs count <native|official|floor>`: one variant's signatures under valgrind, counted by
// the process itself (instructions.mjs runs it), with Node's own conditions: `native` is
// createSigner's default on Node (node:crypto HMAC and nonce).
const counting = process.argv[2] === 'count';
if (!counting && !process.execArgv.includes('--conditions=browser')) {
  const run = spawnSync(process.execPath, ['--conditions=browser', ...process.execArgv, fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
const require = createRequire(import.meta.url);
// Which `#hashes` @x/auth resolves under these conditions: the pure one, or the bench would measure node:crypto twice.
const hashes = createRequire(require.resolve('@x/auth')).resolve('#hashes');
if (!counting && !hashes.endsWith('/hashes.cjs')) throw new Error(`@x/auth's default HMAC is not the pure one here (${hashes})`);
const { createSigner, signRequest } = await import('@x/auth');
const { nodeMac } = await import('@x/auth/node');
const { compare, countSelf, loop } = await import('./harness.mjs');

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

const officialHeaders = () => RestClient.generateTeleSignHeaders(credentials.customerId, credentials.apiKey, 'POST', '/v1/messaging', form, body);

if (counting) {
  // Node's own conditions here: createSigner's default is node:crypto (HMAC and nonce).
  const nodeDefault = createSigner(credentials, options);
  const sign = { native: () => nodeDefault.sign(request), official: officialHeaders, floor }[process.argv[3]];
  await countSelf((n) => {
    for (let i = 0; i < n; i++) sign();
  });
  process.exit(0);
}

await compare({
  id: 'sign',
  title: 'Signing one SMS request (HMAC-SHA256, Date header, fresh nonce)',
  unit: 'signatures/s',
  ms: 300,
  rounds: 9,
  variants: [
    { name: '@x/auth createSigner().sign, pure (default of browsers and workers)', measure: loop(() => pure.sign(request)) },
    { name: '@x/auth createSigner({ mac: nodeMac }).sign (default on Node)', measure: loop(() => native.sign(request)) },
    { name: '@x/auth signRequest (one-off), pure', measure: loop(() => signRequest(request, credentials, options)) },
    { name: 'telesignsdk generateTeleSignHeaders', role: 'official', measure: loop(officialHeaders) },
    { name: 'node:crypto HMAC, same string, date cached', role: 'floor', measure: loop(floor) },
  ],
});
