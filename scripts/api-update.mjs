#!/usr/bin/env node
// Rewrites the API reports (packages/*/etc/*.api.md) from the built declarations: after a
// deliberate change of a public API. Review the diff, add a changeset, commit.
//   node scripts/api-update.mjs [@x/auth ...]     (default: every package; `pnpm api:update` builds first)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compilerFor, entriesOf, extract, packageDirs } from '../testing/package/api-report.mjs';

const only = process.argv.slice(2);
let failed = 0;
for (const pkgDir of packageDirs()) {
  const { name } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  if (only.length && !only.includes(name)) continue;
  const entries = entriesOf(pkgDir);
  const compiler = compilerFor(entries);
  for (const entry of entries) {
    const { ok, what, messages } = extract(entry, { update: true, compiler });
    if (!ok) failed++;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${entry.name}: ${what}`);
    for (const message of messages) console.log(`  ${message}`);
  }
}
process.exit(failed ? 1 : 0);
