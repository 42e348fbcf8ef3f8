// The demo (`npm run demo`'s flow) and every example app (examples/*, see examples/README.md), each
// run with the one command its README gives, on the built packages, against the emulator; each
// exits non-zero on any failure. Bun and Deno are the ones in .tools/runtimes (installed by the
// suite's tools task): a missing runtime is a failure, never a skip.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, '.tools', 'runtimes', 'node_modules', '.bin');
const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH}`, DENO_DIR: join(root, '.tools', 'deno-cache'), NO_COLOR: '1' };

function run(command: string, cwd: string) {
  const result = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

it('demo: the end-to-end flow against the emulator (node demo/demo.mjs)', () => {
  const { status, output } = run(`"${process.execPath}" demo/demo.mjs`, root);
  expect(status, output).toBe(0);
});

const examples: [name: string, command: string, runtime?: string][] = [
  ['express', 'pnpm start'],
  ['fastify', 'pnpm start'],
  ['hono-node', 'pnpm start'],
  // Sign in with a phone number (@x/otp): one story for every framework, played by ../otp-driver.
  ['otp-express', 'pnpm start'],
  ['otp-fastify', 'pnpm start'],
  ['otp-hono', 'pnpm start'],
  // Sending at volume: sendMany from two processes, callbacks through BullMQ (a redis-server of its own).
  ['notifications', 'pnpm start'],
  ['bun', 'pnpm start', 'bun'],
  ['deno', 'pnpm start', 'deno'],
  ['cloudflare-worker', 'pnpm start && pnpm start --wrangler'], // miniflare, then wrangler dev
];

for (const [name, command, runtime] of examples) {
  it(`example: ${name} (${command})`, () => {
    if (runtime) expect(existsSync(join(bin, runtime)), `${runtime} not found in .tools/runtimes: node testing/runtimes/harness.mjs --install`).toBe(true);
    const { status, output } = run(command, join(root, 'examples', name));
    expect(status, output).toBe(0);
  });
}
