#!/usr/bin/env node
// Release dry run: `changeset version` in a throw-away copy of the workspace's manifests and
// .changeset/ (a temp directory; the real tree is never written). Checks, one item each:
//   - every package named by a pending changeset gets a CHANGELOG.md with its new version and
//     the text of each of its changesets;
//   - the changesets are consumed in the copy;
//   - the real tree is byte for byte what it was (manifests, .changeset/, CHANGELOG.md files).
// Ends with `changelog: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${ok || !detail ? '' : `\n  ${detail.replace(/\n/g, '\n  ')}`}`);
}

// The workspace members (pnpm-workspace.yaml's globs are one level deep: dir/*, or a plain dir).
const globs = [...readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8').matchAll(/^\s*-\s*['"]?([^'"\n]+)['"]?\s*$/gm)].map((m) => m[1]).filter((g) => !/^(esbuild|bun|deno|workerd)$/.test(g));
const members = [];
for (const glob of globs) {
  if (glob.endsWith('/*')) {
    const parent = glob.slice(0, -2);
    if (existsSync(join(root, parent))) for (const name of readdirSync(join(root, parent))) if (existsSync(join(root, parent, name, 'package.json'))) members.push(`${parent}/${name}`);
  } else if (existsSync(join(root, glob, 'package.json'))) members.push(glob);
}

// What must not change in the real tree.
const watched = () => {
  const files = ['package.json', 'pnpm-workspace.yaml', ...readdirSync(join(root, '.changeset')).map((f) => `.changeset/${f}`)];
  for (const member of members) for (const f of ['package.json', 'CHANGELOG.md']) if (existsSync(join(root, member, f))) files.push(`${member}/${f}`);
  return new Map(files.map((f) => [f, createHash('sha256').update(readFileSync(join(root, f))).digest('hex')]));
};
const before = watched();

// Pending changesets: package name -> the summaries that name it.
const pending = new Map();
for (const file of readdirSync(join(root, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
  const text = readFileSync(join(root, '.changeset', file), 'utf8');
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) {
    check(`.changeset/${file} has frontmatter`, false, 'expected ---\\n"<package>": patch|minor|major\\n---\\n<summary>');
    continue;
  }
  const summary = m[2].trim().split('\n')[0].trim();
  for (const line of m[1].split('\n')) {
    const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(patch|minor|major)\s*$/.exec(line);
    if (entry) pending.set(entry[1], [...(pending.get(entry[1]) ?? []), summary]);
  }
}

const copy = mkdtempSync(join(tmpdir(), 'changeset-dry-run-'));
try {
  for (const f of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, f), join(copy, f));
  cpSync(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
  const dirOf = new Map();
  for (const member of members) {
    mkdirSync(join(copy, member), { recursive: true });
    for (const f of ['package.json', 'CHANGELOG.md']) if (existsSync(join(root, member, f))) cpSync(join(root, member, f), join(copy, member, f));
    dirOf.set(JSON.parse(readFileSync(join(root, member, 'package.json'), 'utf8')).name, member);
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir'); // the changelog generator
  const bin = join(dirname(fileURLToPath(import.meta.resolve('@changesets/cli/package.json', `file://${root}/`))), 'bin.js');
  const run = spawnSync(process.execPath, [bin, 'version'], { cwd: copy, encoding: 'utf8', timeout: 120_000, env: { ...process.env, CI: 'true' } });
  check('changeset version (in a temp copy)', run.status === 0, `${run.stdout}${run.stderr}`.trim());

  for (const [name, summaries] of [...pending].sort()) {
    const member = dirOf.get(name);
    if (!member) {
      check(`${name}: a workspace package`, false, `a changeset names ${name}, which is not in the workspace`);
      continue;
    }
    const changelog = join(copy, member, 'CHANGELOG.md');
    const version = JSON.parse(readFileSync(join(copy, member, 'package.json'), 'utf8')).version;
    const text = existsSync(changelog) ? readFileSync(changelog, 'utf8') : '';
    const missing = summaries.filter((s) => !text.includes(s));
    check(
      `${name}: CHANGELOG.md with ${version} and its ${summaries.length} changesets`,
      text.startsWith(`# ${name}`) && text.includes(`## ${version}`) && missing.length === 0,
      text ? `missing: ${missing.slice(0, 3).join(' | ')}` : `no ${member}/CHANGELOG.md was written`,
    );
  }
  const left = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  check('changesets consumed in the copy', left.length === 0, `left: ${left.join(', ')}`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}

const after = watched();
const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
check('the real tree is untouched', changed.length === 0, `changed: ${changed.join(', ')}`);
console.log(`changelog: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
