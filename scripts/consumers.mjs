#!/usr/bin/env node
// The consumer type fixtures (testing/consumers/<mode>/): a user's project under each module
// resolution, importing every public entry point of every package, compiled with tsc against the
// BUILT declarations (run the build first). A subpath whose types do not resolve under a mode
// fails that mode.
//   node scripts/consumers.mjs              coverage + every fixture
//   node scripts/consumers.mjs coverage     every public entry is imported by every fixture
//   node scripts/consumers.mjs node10       one fixture (node10, node16-cjs, nodenext, bundler)
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const consumers = join(root, 'testing', 'consumers');
const FIXTURES = ['node10', 'node16-cjs', 'nodenext', 'bundler'];
// One source for every fixture (each tsconfig names it); node16-cjs compiles a .cts copy of it.
const SOURCE = join(consumers, 'entries.ts');

/** Every public entry point: each package's name plus each "exports" subpath (but ./package.json). */
function publicEntries() {
  const entries = [];
  for (const dir of readdirSync(join(root, 'packages'))) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    for (const subpath of Object.keys(pkg.exports ?? { '.': null })) {
      if (subpath !== './package.json') entries.push(`${pkg.name}${subpath.slice(1)}`);
    }
  }
  return entries;
}

function coverage() {
  const source = readFileSync(SOURCE, 'utf8');
  const imported = new Set([...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
  const missing = publicEntries().filter((entry) => !imported.has(entry));
  if (missing.length) console.error(`consumers: testing/consumers/entries.ts does not import ${missing.join(', ')}: add an import of each public entry point (and use a name from it).`);
  return missing.length === 0;
}

function compile(mode) {
  if (mode === 'node16-cjs') copyFileSync(SOURCE, join(consumers, mode, 'entries.cts'));
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['-p', join(consumers, mode)], { cwd: consumers, encoding: 'utf8' });
  const ok = result.status === 0;
  if (!ok) console.error(`consumers: ${mode} does not compile against the built packages:\n${result.stdout}${result.stderr}`);
  return ok;
}

const wanted = process.argv.slice(2);
let ok = true;
if (wanted.length === 0 || wanted.includes('coverage')) ok = coverage() && ok;
for (const mode of FIXTURES) if (wanted.length === 0 || wanted.includes(mode)) ok = compile(mode) && ok;
for (const mode of wanted) {
  if (mode === 'coverage' || FIXTURES.includes(mode)) continue;
  ok = false;
  console.error(`consumers: no fixture ${mode} (${FIXTURES.join(', ')})`);
}
process.exit(ok ? 0 : 1);
