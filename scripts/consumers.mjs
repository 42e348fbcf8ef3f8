#!/usr/bin/env node
// The consumer type fixtures (testing/consumers/<mode>/): a user's project under each module
// resolution, importing every public entry point of every package, compiled with tsc against the
// BUILT declarations (run the build first). A subpath whose types do not resolve under a mode
// fails that mode.
//   node scripts/consumers.mjs              coverage + every fixture
//   node scripts/consumers.mjs coverage     every public entry is imported by every fixture
//   node scripts/consumers.mjs node10       one fixture (node10, node16-cjs, nodenext, bundler)
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const consumers = join(root, 'testing', 'consumers');
const FIXTURES = { node10: 'entries.ts', 'node16-cjs': 'entries.cts', nodenext: 'entries.ts', bundler: 'entries.ts' };

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
  const entries = publicEntries();
  let ok = true;
  for (const [mode, file] of Object.entries(FIXTURES)) {
    const source = readFileSync(join(consumers, mode, file), 'utf8');
    const imported = new Set([...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
    const missing = entries.filter((entry) => !imported.has(entry));
    if (missing.length) {
      ok = false;
      console.error(`consumers: testing/consumers/${mode}/${file} does not import ${missing.join(', ')}: add an import of each public entry point (and use a name from it).`);
    }
  }
  return ok;
}

function compile(mode) {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const result = spawnSync(tsc, ['-p', join(consumers, mode)], { cwd: consumers, encoding: 'utf8' });
  const ok = result.status === 0;
  if (!ok) console.error(`consumers: ${mode} does not compile against the built packages:\n${result.stdout}${result.stderr}`);
  return ok;
}

const wanted = process.argv.slice(2);
let ok = true;
if (wanted.length === 0 || wanted.includes('coverage')) ok = coverage() && ok;
for (const mode of Object.keys(FIXTURES)) if (wanted.length === 0 || wanted.includes(mode)) ok = compile(mode) && ok;
for (const mode of wanted) {
  if (mode === 'coverage' || mode in FIXTURES) continue;
  ok = false;
  console.error(`consumers: no fixture ${mode} (${Object.keys(FIXTURES).join(', ')})`);
}
process.exit(ok ? 0 : 1);
