// Item 5: `npx @x/emulator` from anywhere once published. The package is packed as it would be
// published (pnpm pack, with @x/auth and @x/service beside it since none is on the registry yet), installed
// into an empty project in a temporary directory, and started with `npx @x/emulator`: npx must
// pick the CLI as the package's command.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packages = fileURLToPath(new URL('../..', import.meta.url));
const quiet = { encoding: 'utf8' as const, timeout: 240_000, env: { ...process.env, npm_config_yes: 'true', npm_config_audit: 'false', npm_config_fund: 'false' } };

describe('npx @x/emulator', () => {
  it('runs the CLI from the published package, in a project elsewhere', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-emulator-npx-'));
    for (const name of ['service', 'auth', 'emulator']) {
      const packed = spawnSync('pnpm', ['pack', '--pack-destination', dir], { ...quiet, cwd: join(packages, name) });
      expect(packed.status, `pnpm pack ${name}: ${packed.stderr}`).toBe(0);
    }
    const tarballs = readdirSync(dir).filter((f) => f.endsWith('.tgz')).map((f) => join(dir, f));
    expect(tarballs).toHaveLength(3);
    const project = join(dir, 'project');
    spawnSync('mkdir', [project]);
    writeFileSync(join(project, 'package.json'), '{ "name": "somewhere", "private": true }');
    const installed = spawnSync('npm', ['install', '--prefer-offline', '--no-save', ...tarballs], { ...quiet, cwd: project });
    expect(installed.status, installed.stderr).toBe(0);

    const help = spawnSync('npx', ['--no-install', '@x/emulator', '--help'], { ...quiet, cwd: project });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^x-emulator: a local emulator/);

    const child = spawn('npx', ['--no-install', '@x/emulator', '--port', '0', '--json'], { cwd: project, env: quiet.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /"url":"([^"]+)"/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`npx exited ${code}`)));
      });
      const clock = await fetch(`${url}/_emulator/clock`);
      expect(clock.status).toBe(200);
    } finally {
      // npx runs the CLI in a child of its own: end the whole group it leads.
      process.kill(-child.pid!, 'SIGTERM');
    }
  });
});
