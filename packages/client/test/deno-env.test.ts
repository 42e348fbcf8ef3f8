// The BUILT client in a real Deno (the one testing/runtimes/harness.mjs installs into .tools/): without
// --allow-env, createClient() says so and how to fix it, never prompts; with it, the variables
// configure a client that reaches a real server on 127.0.0.1. Skipped when Deno is not installed.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingServer, type RecordingServer } from './recording-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deno = join(root, '.tools', 'runtimes', 'node_modules', '.bin', 'deno');
const account = { customerId: 'CCCCCCCC-1111-2222-3333-444444444444', apiKey: Buffer.from('a key for deno').toString('base64') };

const SCRIPT = `
import { createClient } from '@x/client';
try {
  const client = createClient({ retry: false });
  const sent = await client.messaging.send({ phoneNumber: '15555550100', message: 'hi', messageType: 'ARN' });
  console.log('SENT ' + sent.status);
} catch (error) {
  console.log('ERROR ' + error.name + ': ' + error.message);
}
`;

let dir: string;
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer([account]);
  dir = mkdtempSync(join(tmpdir(), 'x-deno-env-'));
  const file = (path: string) => pathToFileURL(path).href;
  const noble = realpathSync(join(root, 'packages', 'auth', 'node_modules', '@noble', 'hashes'));
  const imports = {
    '@x/client': file(join(root, 'packages', 'client', 'dist', 'index.js')),
    // Without package.json resolution (an import map, as here), the client's runtime module is
    // mapped by hand, as its README says; through npm or node_modules Deno resolves it itself.
    '#platform': file(join(root, 'packages', 'client', 'dist', 'platform.js')),
    '@x/auth': file(join(root, 'packages', 'auth', 'dist', 'index.js')),
    '@x/auth/protocol': file(join(root, 'packages', 'auth', 'dist', 'protocol.js')),
    '#hashes': file(join(root, 'packages', 'auth', 'dist', 'hashes.js')),
    '@x/service': file(join(root, 'packages', 'service', 'dist', 'index.js')),
    '@x/service/failures': file(join(root, 'packages', 'service', 'dist', 'failures.js')),
    '@x/service/request': file(join(root, 'packages', 'service', 'dist', 'request.js')),
    '@x/service/hosts': file(join(root, 'packages', 'service', 'dist', 'hosts.js')),
    '@noble/hashes/': `${file(noble)}/`,
  };
  writeFileSync(join(dir, 'deno.json'), JSON.stringify({ imports }));
  writeFileSync(join(dir, 'main.mjs'), SCRIPT);
});
afterAll(() => server?.close());

/** Runs the script in Deno, asynchronously: the server in this process must keep answering. */
function run(flags: string[], env: Record<string, string>): Promise<string> {
  const args = ['run', '--no-prompt', '--no-lock', `--config=${join(dir, 'deno.json')}`, ...flags, join(dir, 'main.mjs')];
  const environment = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, DENO_DIR: join(dir, 'cache'), DENO_NO_PACKAGE_JSON: '1', NO_COLOR: '1', ...env };
  return new Promise((resolve) => {
    execFile(deno, args, { cwd: dir, encoding: 'utf8', timeout: 60_000, env: environment }, (_error, stdout, stderr) => resolve(`${stdout}${stderr}`.trim()));
  });
}

// In CI a missing Deno is a failure (npm test installs it before the unit tests), never a skip.
describe.skipIf(!existsSync(deno) && !process.env.CI)('Deno (real runtime, built client)', () => {
  const variables = { X_CUSTOMER_ID: account.customerId, X_API_KEY: account.apiKey };

  it('without --allow-env: a ConfigurationError that names the flag, no prompt', async () => {
    const output = await run([`--allow-read=${root}`], { ...variables, X_BASE_URL: server.url });
    expect(output).toContain('ERROR ConfigurationError: createClient needs credentials');
    expect(output).toContain('Deno refused to read X_CUSTOMER_ID, X_API_KEY: run with --allow-env=X_CUSTOMER_ID,X_API_KEY,X_BASE_URL,X_LOG_LEVEL');
    expect(output).not.toContain(account.apiKey);
  });

  it('with --allow-env for the variables: configured from them, the request verifies', async () => {
    const output = await run([`--allow-read=${root}`, '--allow-env=X_CUSTOMER_ID,X_API_KEY,X_BASE_URL,X_LOG_LEVEL', '--allow-net=127.0.0.1'], { ...variables, X_BASE_URL: server.url });
    expect(output).toContain('SENT 200');
    expect(server.requests.at(-1)?.auth).toMatchObject({ ok: true, customerId: account.customerId });
  });
});
