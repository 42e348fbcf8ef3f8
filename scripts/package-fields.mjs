#!/usr/bin/env node
// The publishing fields of every public package (packages/*, not private) come from one place,
// the root package.json: `repository` (the canonical GitHub repository; npm provenance requires
// it to match the repository that publishes), `homepage`, `bugs`, `license` and `publishConfig`
// (public, with provenance); and each package carries the root LICENSE (npm puts a package's
// LICENSE in its tarball whatever `files` says).
//   node scripts/package-fields.mjs --check    lists what drifted, exits 1 (the release suite)
//   node scripts/package-fields.mjs --write    rewrites only those fields and files
// `--root <dir>` runs on another checkout (the release suite's own test).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { check: { type: 'boolean' }, write: { type: 'boolean' }, root: { type: 'string' } } });
if (values.check === values.write) {
  console.error('Usage: node scripts/package-fields.mjs --check | --write [--root <dir>]');
  process.exit(2);
}
const root = resolve(values.root ?? fileURLToPath(new URL('..', import.meta.url)));
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The canonical repository, from the root package.json: `git+https://github.com/<owner>/<name>.git`. */
function canonical() {
  const { repository, license } = readJson(join(root, 'package.json'));
  const match = /^git\+https:\/\/github\.com\/([\w.-]+)\/([\w.-]+)\.git$/.exec(repository?.url ?? '');
  if (repository?.type !== 'git' || !match) {
    console.error(`package.json (root): repository must be { "type": "git", "url": "git+https://github.com/<owner>/<name>.git" }, the repository that publishes (npm provenance checks it); found ${JSON.stringify(repository)}`);
    process.exit(1);
  }
  if (typeof license !== 'string' || !license) {
    console.error('package.json (root): license is missing');
    process.exit(1);
  }
  return { url: repository.url, web: `https://github.com/${match[1]}/${match[2]}`, license };
}

/** The fields a package at `packages/<folder>` must have; `undefined` folder: the root's own. */
function expected({ url, web, license }, folder) {
  return {
    license,
    repository: folder ? { type: 'git', url, directory: `packages/${folder}` } : { type: 'git', url },
    homepage: folder ? `${web}/tree/main/packages/${folder}#readme` : `${web}#readme`,
    bugs: { url: `${web}/issues` },
    // Scoped packages are private on npm unless published as public; provenance makes a publish
    // from anywhere but a CI that npm can verify fail instead of shipping an unattested tarball.
    ...(folder ? { publishConfig: { access: 'public', provenance: true } } : {}),
  };
}

/** Replaces or adds `fields`, keeping every other key and the order of the keys already there. */
function withFields(manifest, fields) {
  const out = {};
  const missing = Object.keys(fields).filter((key) => !(key in manifest));
  for (const [key, value] of Object.entries(manifest)) {
    out[key] = key in fields ? fields[key] : value;
    // New fields go after `license` (or `description`), where npm's own template puts them.
    if (key === 'license' || (key === 'description' && !('license' in manifest))) for (const add of missing.splice(0)) out[add] = fields[add];
  }
  for (const add of missing) out[add] = fields[add];
  return out;
}

const source = canonical();
const licenseText = readFileSync(join(root, 'LICENSE'), 'utf8');
const drift = [];
const targets = [{ file: 'package.json', folder: undefined }];
for (const entry of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
  if (!entry.isDirectory() || !existsSync(join(root, 'packages', entry.name, 'package.json'))) continue;
  if (readJson(join(root, 'packages', entry.name, 'package.json')).private) continue;
  targets.push({ file: `packages/${entry.name}/package.json`, folder: entry.name });
}

for (const { file, folder } of targets) {
  const fields = expected(source, folder);
  const manifest = readJson(join(root, file));
  const wrong = Object.keys(fields).filter((key) => JSON.stringify(manifest[key]) !== JSON.stringify(fields[key]));
  for (const key of wrong) drift.push(`${file}: ${key} is ${JSON.stringify(manifest[key])}, expected ${JSON.stringify(fields[key])}`);
  if (values.write && wrong.length) {
    // Read again right before writing: others edit other fields of these files.
    const fresh = readJson(join(root, file));
    writeFileSync(join(root, file), `${JSON.stringify(withFields(fresh, fields), null, 2)}\n`);
  }
  if (!folder) continue;
  const license = join(root, 'packages', folder, 'LICENSE');
  if (!existsSync(license) || readFileSync(license, 'utf8') !== licenseText) {
    drift.push(`packages/${folder}/LICENSE: ${existsSync(license) ? 'differs from' : 'missing, a copy of'} the root LICENSE`);
    if (values.write) writeFileSync(license, licenseText);
  }
}

if (values.write) {
  for (const line of drift) console.log(`wrote ${line.split(':')[0]}: ${line.split(':')[1].trim().split(' ')[0]}`);
  process.exit(0);
}
if (drift.length) {
  console.error(`${drift.join('\n')}\n\n${drift.length} field(s) drifted from the root package.json / LICENSE: run \`node scripts/package-fields.mjs --write\`.`);
  process.exit(1);
}
console.log(`ok: ${targets.length - 1} public packages take repository, homepage, bugs, license and LICENSE from the root`);
