// `npm start`: the Worker in workerd (through miniflare, what `wrangler dev` runs), on 127.0.0.1,
// against the emulator (the service, locally; no account needed). It bundles src/worker.ts as
// wrangler does, starts the Worker and the emulator, then plays the user: asks the Worker for a
// code, reads it on the "phone" (the emulator's outbox), types it, and waits until the Worker has
// received and verified the signed delivery report. Exit 0, or 1 with the reason (after 60 s at
// the latest).
//   npm start -- --wrangler                        the same, with the Worker under `wrangler dev`
//   npm start -- --worker URL --emulator URL       the story only, against a Worker and an emulator
//                                                  already running (npm run dev, npx x-emulator)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import { DEFAULT_CUSTOMER } from '@x/emulator';
import { startEmulator } from '@x/emulator/node';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { playTheUser } from '../story.mjs';

const { values: args } = parseArgs({ options: { wrangler: { type: 'boolean' }, worker: { type: 'string' }, emulator: { type: 'string' } } });
// The emulator's public test account (DEFAULT_CUSTOMER: never use it anywhere else), as the
// Worker's bindings (.dev.vars or `wrangler secret put` give them; with your account, no X_BASE_URL).
const bindings = (emulator) => ({ X_CUSTOMER_ID: DEFAULT_CUSTOMER.customerId, X_API_KEY: DEFAULT_CUSTOMER.apiKey, X_BASE_URL: emulator.url });
const callbacksTo = (workerUrl) => ({ deliveryDelayMs: 300, customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: `${workerUrl}/callbacks` }] });
// What to stop at the end, or on a failure: each thing as soon as it runs, stopped last first.
const running = [];
const stopAll = async () => {
  while (running.length) await running.pop()().catch(() => {});
};

/** The Worker in workerd through miniflare, bundled as wrangler bundles it; then the emulator. */
async function withMiniflare() {
  const bundle = await build({ entryPoints: ['src/worker.ts'], bundle: true, format: 'esm', platform: 'browser', conditions: ['workerd', 'worker', 'browser'], write: false, logLevel: 'error' });
  const worker = (env, port = 0) => ({ modules: true, script: bundle.outputFiles[0].text, compatibilityDate: '2026-04-01', host: '127.0.0.1', port, bindings: env });
  // 1. The Worker on a free port: the emulator's account sends its callbacks there.
  const mf = new Miniflare(worker({}));
  running.push(() => mf.dispose());
  const url = await mf.ready;
  // 2. The emulator. 3. The Worker's bindings, now that the emulator's URL is known.
  const emulator = await startEmulator(callbacksTo(url.origin));
  running.push(() => emulator.close());
  await mf.setOptions(worker(bindings(emulator), Number(url.port)));
  await mf.ready;
  return { what: 'Worker in workerd (miniflare)', workerUrl: url.origin, emulatorUrl: emulator.url };
}

/** The Worker under `wrangler dev` (as `npm run dev` starts it, with the bindings as --var). */
async function withWrangler() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = probe.address().port; // a free port for wrangler, which takes no port 0
  probe.close();
  const workerUrl = `http://127.0.0.1:${port}`;
  const emulator = await startEmulator(callbacksTo(workerUrl));
  running.push(() => emulator.close());
  const vars = Object.entries(bindings(emulator)).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const cli = createRequire(import.meta.url).resolve('wrangler/bin/wrangler.js');
  const wrangler = spawn(process.execPath, [cli, 'dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', '0', '--log-level', 'warn', ...vars], {
    // No metrics, and no download of request.cf's data from Cloudflare (this Worker does not read it).
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  wrangler.stdout.on('data', (chunk) => (output += chunk));
  const exited = once(wrangler, 'exit');
  running.push(async () => {
    if (wrangler.exitCode === null) wrangler.kill('SIGTERM');
    await exited;
  });
  // Ready when the Worker answers.
  for (;;) {
    if (wrangler.exitCode !== null) throw new Error(`wrangler dev exited with ${wrangler.exitCode}: ${output}`);
    const up = await fetch(`${workerUrl}/verifications/none`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { what: 'Worker under wrangler dev', workerUrl, emulatorUrl: emulator.url };
}

let failing;
const fail = (reason) =>
  (failing ??= (async () => {
    console.error(`FAILED: ${reason}`);
    await Promise.race([stopAll(), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    process.exit(1);
  })());
setTimeout(() => fail('not finished within 60 s'), 60_000).unref();

if (Boolean(args.worker) !== Boolean(args.emulator)) await fail('--worker and --emulator go together');
const started = args.worker ? { what: 'Worker (already running)', workerUrl: args.worker, emulatorUrl: args.emulator } : await (args.wrangler ? withWrangler() : withMiniflare()).catch((error) => fail(error?.stack ?? error));
const { workerUrl, emulatorUrl } = started;
console.log(`${started.what} at ${workerUrl}, emulator on ${emulatorUrl}`);

try {
  await playTheUser({ appUrl: workerUrl, emulator: emulatorUrl, customerId: DEFAULT_CUSTOMER.customerId });
} catch (error) {
  await fail(error?.stack ?? error);
}
await stopAll();
