#!/usr/bin/env node
// One entry point for `npm run demo | test | bench | size` that works on a machine with only
// Node (>= 20.19) and npm: it provides the pinned pnpm, installs the workspace, builds, and runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PNPM = '10.34.9';
const root = fileURLToPath(new URL('..', import.meta.url));
const tools = join(root, '.tools');
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', npm_config_yes: 'true' };

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Node >= 20.19 is required (this is ${process.version}).`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function pnpmVersion() {
  const result = spawnSync('pnpm', ['--version'], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

// pnpm: the pinned version from PATH, else installed once into .tools/ (corepack is unreliable here).
if (pnpmVersion() !== PNPM) {
  const bin = join(tools, 'node_modules', '.bin');
  env.PATH = `${bin}${delimiter}${env.PATH}`;
  if (pnpmVersion() !== PNPM) {
    console.log(`> installing pnpm ${PNPM} into .tools/`);
    if (run('npm', ['install', '--prefix', tools, '--no-save', '--no-audit', '--no-fund', `pnpm@${PNPM}`], { stdio: 'ignore' }) !== 0 || pnpmVersion() !== PNPM) {
      console.error('Could not install pnpm from the npm registry.');
      process.exit(1);
    }
  }
}
env.PATH = `${join(root, 'node_modules', '.bin')}${delimiter}${env.PATH}`;

const task = process.argv[2] ?? 'test';
const frozen = existsSync(join(root, 'pnpm-lock.yaml')) ? ['--frozen-lockfile'] : [];
if (run('pnpm', ['install', '--prefer-offline', ...frozen, '--reporter=silent']) !== 0) process.exit(1);

/** Builds the packages, printing turbo's output only when it fails. */
function build() {
  const result = spawnSync('pnpm', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, env, encoding: 'utf8' });
  if (result.status !== 0) process.stdout.write(`${result.stdout}${result.stderr}`);
  return result.status ?? 1;
}

/**
 * The suite needs Debian's chromium, redis-server and openssl: .ci/system-packages.sh installs
 * what is missing on a root Debian machine (as CI is), and says what is missing elsewhere.
 */
function systemPackages() {
  run('sh', [join(root, '.ci', 'system-packages.sh')]);
}

const tasks = {
  test: () => {
    systemPackages();
    return run('node', ['scripts/suite.mjs', ...process.argv.slice(3)]);
  },
  demo: () => build() || run('node', ['demo/demo.mjs', ...process.argv.slice(3)]),
  bench: () => build() || run('pnpm', ['--filter', '@x/bench', 'run', 'bench', ...process.argv.slice(3)]),
  size: () => build() || run('pnpm', ['exec', 'size-limit']),
};
if (!tasks[task]) {
  console.error(`Unknown task "${task}". Use one of: ${Object.keys(tasks).join(', ')}.`);
  process.exit(2);
}
process.exit(tasks[task]());
