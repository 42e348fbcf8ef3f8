import { fork, execFileSync } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { createSigner } from '@x/auth';
import { createClient } from '@x/client';
const which = process.argv[2];
const server = fork('/work/main/bench/client.mjs', ['server']);
const port = await new Promise((r) => server.once('message', r));
const base = `http://127.0.0.1:${port}`;
const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: 'ABC12345yusumoN6BYsBVkh+yRJ5czgsnCehZaOYldPJdmFh6NeX8kunZ2zU1YWaUw/0wV6xfw==' };
const params = { phoneNumber: '15555551234', message: 'Your code is 123456', messageType: 'OTP' };
const body = 'phone_number=15555551234&message=Your+code+is+123456&message_type=OTP';
const { headers } = createSigner(credentials).sign({ method: 'POST', url: `${base}/v1/messaging`, contentType: 'application/x-www-form-urlencoded', body });
const sent = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
const agent = new Agent({ keepAlive: true, maxSockets: 32 });
const client = createClient({ ...credentials, baseUrl: base });
const bare = () => new Promise((resolve, reject) => {
  const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/messaging', method: 'POST', headers: sent, agent }, (res) => {
    let text = ''; res.setEncoding('utf8'); res.on('data', (c) => (text += c)); res.on('end', () => resolve(JSON.parse(text))); res.on('error', reject);
  });
  req.on('error', reject); req.end(body);
});
const f = which === 'bare' ? bare : () => client.messaging.send(params);
const run = async (n) => { let i = 0; await Promise.all(Array.from({ length: 32 }, async () => { while (i++ < n) await f(); })); };
await run(Number(process.env.WARM ?? 10000));
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)]);
await run(4000);
execFileSync('callgrind_control', ['-i', 'off', String(process.pid)]);
server.disconnect(); process.exit(0);
