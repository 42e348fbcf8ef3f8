// `npx @x/emulator` in a project that installed the published package: npx must pick the CLI as
// the package's command, print its help, and start a server that answers.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';

const env = { ...process.env, npm_config_yes: 'true' };

test('npx @x/emulator --help names the CLI', () => {
  const help = spawnSync('npx', ['--no-install', '@x/emulator', '--help'], { encoding: 'utf8', env });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^x-emulator: a local emulator/);
});

test('npx @x/emulator --port 0 --json starts a server that answers', async () => {
  const child = spawn('npx', ['--no-install', '@x/emulator', '--port', '0', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  try {
    const url = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /"url":"([^"]+)"/.exec(out);
        if (match) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`npx exited ${code}`)));
    });
    const clock = await fetch(`${url}/_emulator/clock`);
    assert.equal(clock.status, 200);
  } finally {
    // npx runs the CLI in a child of its own: end the whole group it leads.
    process.kill(-child.pid, 'SIGTERM');
  }
});
