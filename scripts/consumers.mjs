#!/usr/bin/env node
// The strict consumer fixture (testing/consumers/): a user's project importing every public entry
// point of every package and using their options, compiled with tsc against the BUILT declarations
// (build first). `coverage` fails when a package's "exports" gains an entry entries.ts does not import.
//   node scripts/consumers.mjs              coverage + compile
//   node scripts/consumers.mjs coverage     only the coverage
//   node scripts/consumers.mjs compile      only the compile
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const consumers = join(root, 'testing', 'consumers');

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
  const source = readFileSync(join(consumers, 'entries.ts'), 'utf8');
  const imported = new Set([...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]));
  const missing = publicEntries().filter((entry) => !imported.has(entry));
  if (missing.length) console.error(`consumers: testing/consumers/entries.ts does not import ${missing.join(', ')}: add an import of each public entry point (and use a name from it).`);
  return missing.length === 0;
}

function compile() {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumers], { cwd: consumers, encoding: 'utf8' });
  if (result.status !== 0) console.error(`consumers: the strict fixture does not compile against the built packages:\n${result.stdout}${result.stderr}`);
  return result.status === 0;
}

const wanted = process.argv.slice(2);
let ok = true;
if (wanted.length === 0 || wanted.includes('coverage')) ok = coverage() && ok;
if (wanted.length === 0 || wanted.includes('compile')) ok = compile() && ok;
process.exit(ok ? 0 : 1);
