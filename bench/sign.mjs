// Signatures per second: @x/auth (reusable signer, one-off signRequest) vs the official Node
// client's header generation (telesignsdk) vs the physical baseline (node:crypto HMAC over the
// same string to sign), in one run on the same input. Run: npm run bench
import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { createSigner, signRequest } from '@x/auth';
import { nodeMac } from '@x/auth/node';

const require = createRequire(import.meta.url);
const RestClient = require('telesignsdk/src/RestClient.js');

const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const body = 'phone_number=15555551234&message=Your%20code%20is%20123456&message_type=OTP';
const form = 'application/x-www-form-urlencoded';
const request = { method: 'POST', url: 'https://rest-api.telesign.com/v1/messaging', contentType: form, body };
const signer = createSigner(credentials, { dateHeader: 'date' });
const nativeSigner = createSigner(credentials, { dateHeader: 'date', mac: nodeMac });
const key = Buffer.from(credentials.apiKey, 'base64');

// Same layout for all: Date header, fresh nonce, same body and path.
const bench = new Bench({ time: Number(process.env.BENCH_MS ?? 1500), warmup: true });
bench
  .add('@x/auth createSigner({ mac: nodeMac }) (Node)', () => {
    nativeSigner.sign(request);
  })
  .add('@x/auth createSigner().sign (pure, any runtime)', () => {
    signer.sign(request);
  })
  .add('@x/auth signRequest (one-off call, pure)', () => {
    signRequest(request, credentials, { dateHeader: 'date' });
  })
  .add('telesignsdk generateTeleSignHeaders (official)', () => {
    RestClient.generateTeleSignHeaders(credentials.customerId, credentials.apiKey, 'POST', '/v1/messaging', form, body);
  })
  .add('node:crypto createHmac (baseline, same string)', () => {
    const date = new Date().toUTCString();
    const sts = `POST\n${form}\n${date}\nx-ts-auth-method:HMAC-SHA256\nx-ts-nonce:${randomUUID()}\n${body}\n/v1/messaging`;
    createHmac('sha256', key).update(sts).digest('base64');
  });

await bench.run();
const rows = bench.tasks.map((t) => ({ name: t.name, hz: t.result.throughput?.mean ?? t.result.hz }));
const official = rows.find((r) => r.name.includes('official')).hz;
const native = rows.find((r) => r.name.includes('baseline')).hz;
console.log(`Node ${process.version}, ${process.arch}; ${bench.tasks[0].result.latency?.samplesCount ?? ''} samples in the first task`);
console.log('task'.padEnd(50), 'ops/s'.padStart(10), ' vs official', ' vs node:crypto');
for (const r of rows) {
  console.log(r.name.padEnd(50), Math.round(r.hz).toString().padStart(10), (r.hz / official).toFixed(2).padStart(11) + 'x', (r.hz / native).toFixed(2).padStart(13) + 'x');
}
