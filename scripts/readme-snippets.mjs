#!/usr/bin/env node
// Docs whose code runs: every ```ts / ```typescript / ```js block of every README.md (root,
// packages/*, examples/*), of a package's TESTING.md (the emulator's guide per test runner) and GUIDE.md (a package's longer guides) and of CONTRIBUTING.md, and of every `@example` tag in the packages'
// TSDoc comments (packages/*/src), is written to docs/snippets/.work/ and type-checked
// in one strict program against the BUILT packages (docs/snippets/tsconfig.json extends
// testing/tsconfig.consumer.json); blocks marked ```ts run are then run in Node (they use the
// in-process emulator, so they need no network). ```sh blocks: every `npm i` / `npm install` /
// `pnpm add` / `bun add` / `npx` line must name packages that exist (the workspace's own, or a
// dependency / peer dependency one of them declares).
//
// Info strings (see CONTRIBUTING.md, "Code in the docs"):
//   ```ts            compiled
//   ```ts run        compiled, then run in Node; exits non-zero on failure (throw, failed assert)
//   ```ts fragment   shown only, never compiled: an excerpt that cannot stand alone (keep these few)
//                    (refused in the callback adapters' READMEs: webhooks, express, fastify, hono)
// Free names a snippet uses without importing them are the reader's own values, declared once in
// docs/snippets/placeholders.d.ts (credentials, a database, ...); everything from the SDK must be
// imported in the snippet itself, from the module it comes from.
//
// Each snippet counts as one: `readme-snippets: N passed, N failed` is the last line; in the suite,
// testing/docs/snippets.test.ts makes each one a test.
// Usage: node scripts/readme-snippets.mjs [README.md ...]   (default: all of them)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, 'docs', 'snippets');
// --work NAME: another work directory under docs/snippets/ (the harness's own test uses one).
const workArg = process.argv.indexOf('--work');
const work = join(dir, workArg > 0 ? process.argv.splice(workArg, 2)[1] : '.work');
// --json FILE: also write every item's name and errors as JSON (testing/docs/snippets.test.ts reads it).
const jsonArg = process.argv.indexOf('--json');
const jsonFile = jsonArg > 0 ? process.argv.splice(jsonArg, 2)[1] : undefined;
const require = createRequire(join(root, 'package.json'));

const CODE = new Set(['ts', 'typescript', 'js', 'javascript']);
const SHELL = new Set(['sh', 'bash', 'shell', 'console']);
const FLAGS = new Set(['run', 'fragment']);
const ADAPTER_READMES = new Set(['webhooks', 'express', 'fastify', 'hono'].map((name) => `packages/${name}/README.md`));

function readmes() {
  const list = ['README.md', 'CONTRIBUTING.md'];
  for (const parent of ['packages', 'examples']) {
    for (const name of readdirSync(join(root, parent)).sort()) list.push(`${parent}/${name}/README.md`, `${parent}/${name}/TESTING.md`, `${parent}/${name}/GUIDE.md`);
  }
  return list.filter((file) => existsSync(join(root, file)));
}

/** The fenced blocks of a Markdown file: info string, 1-based line of the opening fence, text. */
function blocks(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const found = [];
  let open;
  lines.forEach((line, index) => {
    const fence = /^(\s*)(`{3,}|~{3,})\s*(.*)$/.exec(line);
    if (!open) {
      if (fence) open = { file, line: index + 1, fence: fence[2], info: fence[3].trim(), body: [] };
    } else if (fence && fence[2].startsWith(open.fence) && fence[3].trim() === '') {
      found.push({ ...open, text: open.body.join('\n') });
      open = undefined;
    } else open.body.push(line);
  });
  if (open) throw new Error(`${file}:${open.line}: unclosed code fence`);
  return found;
}

// The workspace's packages and every name any of them depends on.
const workspace = new Map();
const known = new Set();
for (const parent of ['packages', 'examples']) {
  for (const name of readdirSync(join(root, parent))) {
    const file = join(root, parent, name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (parent === 'packages') workspace.set(pkg.name, join(root, parent, name));
    for (const field of ['dependencies', 'peerDependencies', 'devDependencies', 'optionalDependencies']) {
      for (const dep of Object.keys(pkg[field] ?? {})) known.add(dep);
    }
  }
}
for (const dep of Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies ?? {})) known.add(dep);

/** Where a third-party package is installed in the workspace (pnpm keeps them per package). */
function installed(name) {
  const places = [root, ...['packages', 'examples'].flatMap((parent) => readdirSync(join(root, parent)).map((n) => join(root, parent, n)))];
  for (const place of places) {
    const candidate = join(place, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

const packageOf = (specifier) => {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
};

/** The ```ts blocks of the `@example` tags in the packages' TSDoc comments (src/, not tests). */
function examples() {
  const found = [];
  const walk = (at) => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.(test|test-d)\.ts$/.test(entry.name)) {
        const lines = readFileSync(join(root, path), 'utf8').split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (!/^\s*\*\s*@example\b/.test(lines[i])) continue;
          const fence = /^\s*\*\s*```(\S*)(.*)$/.exec(lines[i + 1] ?? '');
          if (!fence) continue;
          const body = [];
          let j = i + 2;
          for (; j < lines.length && !/^\s*\*\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].replace(/^\s*\* ?/, ''));
          found.push({ file: path, line: i + 2, info: `${fence[1]}${fence[2]}`.trim() || 'ts', text: body.join('\n'), example: true });
          i = j;
        }
      }
    }
  };
  for (const name of readdirSync(join(root, 'packages')).sort()) if (existsSync(join(root, 'packages', name, 'src'))) walk(`packages/${name}/src`);
  return found;
}

const selected = process.argv.slice(2);
const files = selected.length ? selected : readmes();
const snippets = [];
const shells = [];
let fragments = 0;
for (const file of files) {
  for (const block of blocks(file)) {
    const [lang = '', ...flags] = block.info.split(/\s+/);
    if (CODE.has(lang)) {
      const unknown = flags.filter((flag) => !FLAGS.has(flag));
      const snippet = { ...block, lang, run: flags.includes('run'), fragment: flags.includes('fragment'), unknown };
      // The callback adapters' READMEs (webhooks, express, fastify, hono) show code users paste into
      // a strict project: every block there is compiled, none is a fragment.
      if (snippet.fragment && ADAPTER_READMES.has(file)) snippets.push({ ...snippet, refused: 'a fragment is not allowed in an adapter README: write the example out whole, so that it is compiled' });
      else if (snippet.fragment && unknown.length === 0 && !snippet.run) fragments++;
      else snippets.push(snippet);
    } else if (SHELL.has(lang)) shells.push(block);
  }
}
// @example blocks are compiled like README blocks (all of them: each must be complete).
if (!selected.length) {
  for (const block of examples()) {
    const [lang = '', ...flags] = block.info.split(/\s+/);
    snippets.push({ ...block, lang: CODE.has(lang) ? lang : 'ts', run: flags.includes('run'), fragment: false, unknown: flags.filter((flag) => !FLAGS.has(flag) || flag === 'fragment') });
  }
}

rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, 'node_modules', '@x'), { recursive: true });
const linked = new Set();
function link(name, target) {
  if (linked.has(name) || !target) return;
  linked.add(name);
  const at = join(work, 'node_modules', name);
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at, 'dir');
}
for (const [name, path] of workspace) link(name, path);

const results = [];
const slug = (file) => file.replace(/\/README\.md$/, '').replace(/\.md$/, '').replace(/\.tsx?$/, '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root';
for (const snippet of snippets) {
  snippet.name = `${snippet.file}:${snippet.line}`;
  snippet.errors = [];
  if (snippet.unknown.length) snippet.errors.push(`unknown flag(s) ${snippet.unknown.join(' ')} (use run or fragment)`);
  if (snippet.refused) snippet.errors.push(snippet.refused);
  const ext = snippet.lang.startsWith('j') ? 'mjs' : 'mts';
  snippet.path = join(work, `${slug(snippet.file)}-L${snippet.line}.${ext}`);
  // Deno's npm: specifiers are compiled as the package they name.
  const source = snippet.text.replace(/(['"])npm:((?:@[^/'"@]+\/)?[^/'"@]+)(?:@[^/'"]*)?(\/[^'"]*)?\1/g, '$1$2$3$1');
  writeFileSync(snippet.path, source);
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
    const name = packageOf(match[1]);
    if (name.startsWith('node:') || name.startsWith('.') || workspace.has(name)) continue;
    link(name, installed(name));
    const types = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
    link(types, installed(types));
  }
}

// One program: the snippets, the placeholders, the runtime declarations.
const tsconfig = join(work, 'tsconfig.json');
writeFileSync(tsconfig, JSON.stringify({ extends: '../tsconfig.json', include: ['../placeholders.d.ts', '../runtimes.d.ts', './*.mts', './*.mjs'], exclude: ['./*.run.mjs'] }, null, 2));
const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', tsconfig, '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
const byPath = new Map(snippets.map((s) => [resolve(s.path), s]));
const other = [];
for (const line of `${tsc.stdout}${tsc.stderr}`.split('\n')) {
  const m = /^(.+?)\((\d+),(\d+)\): (error .*)$/.exec(line);
  if (!m) {
    if (line.trim() && !line.startsWith(' ')) other.push(line);
    else if (line.trim() && other.length) other[other.length - 1] += `\n${line}`;
    continue;
  }
  const snippet = byPath.get(resolve(root, m[1]));
  if (snippet) snippet.errors.push(`${snippet.file}:${snippet.line + Number(m[2])}:${m[3]} ${m[4]}`);
  else other.push(line);
}

// Run the ```ts run blocks that compiled (esbuild strips the types; node runs the module).
const { transformSync } = await import(require.resolve('esbuild'));
for (const snippet of snippets) {
  if (!snippet.run || snippet.errors.length) continue;
  const js = transformSync(readFileSync(snippet.path, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20', sourcefile: snippet.name });
  const out = snippet.path.replace(/\.m?[tj]s$/, '.run.mjs');
  writeFileSync(out, js.code);
  const ran = spawnSync(process.execPath, [out], { cwd: work, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  if (ran.status !== 0) snippet.errors.push(`run failed (${ran.signal ?? `exit ${ran.status}`}):\n${`${ran.stdout}${ran.stderr}`.trim().split('\n').slice(0, 20).join('\n')}`);
}

// Install lines in shell blocks.
for (const block of shells) {
  const errors = [];
  let checked = 0;
  for (const line of block.text.split('\n')) {
    const command = line.replace(/#.*$/, '');
    for (const m of command.matchAll(/\b(?:npm (?:i|install|add)|pnpm (?:add|install|i)|yarn add|bun add|npx|deno add)\s+([^&|;]+)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        if (!word || word.startsWith('-')) continue;
        if (/^[a-z]/.test(word) && !word.includes('@') && !known.has(word) && !workspace.has(word) && m[0].startsWith('npx')) break;
        const name = packageOf(word.replace(/^npm:/, '').replace(/(.)@[^/]*$/, '$1'));
        checked++;
        if (name.startsWith('@x/') ? !workspace.has(name) : !known.has(name)) errors.push(`${block.file}:${block.line}: "${line.trim()}" names ${name}, which no workspace package is or depends on`);
        if (m[0].startsWith('npx')) break; // the rest are the command's arguments
      }
    }
  }
  if (checked) results.push({ name: `${block.file}:${block.line} (install line)`, errors });
}

// Each package's README opens with how to install it: an install line naming the package and its
// required peer dependencies, and a "Peer dependencies" row that names every peer with the range
// of its package.json (one place for the facts: the README is checked against it).
if (!selected.length) {
  for (const [name, path] of workspace) {
    const file = `${relative(root, path)}/README.md`;
    if (!existsSync(join(root, file))) continue;
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    const errors = [];
    const peers = Object.entries(pkg.peerDependencies ?? {});
    const required = peers.filter(([peer]) => !pkg.peerDependenciesMeta?.[peer]?.optional).map(([peer]) => peer);
    const lines = blocks(file).filter((b) => SHELL.has(b.info.split(/\s+/)[0])).flatMap((b) => b.text.split('\n').map((l) => l.replace(/#.*$/, '')));
    const install = lines.find((l) => /\b(npm (i|install)|pnpm add)\b/.test(l) && l.split(/\s+/).includes(name));
    if (!install) errors.push(`${file}: no \`npm i ${name}\` line in a sh block`);
    else for (const peer of required) if (!install.split(/\s+/).includes(peer)) errors.push(`${file}: "${install.trim()}" leaves out the peer dependency ${peer}`);
    const text = readFileSync(join(root, file), 'utf8');
    const row = /^\| Peer dependencies \|(.*)\|$/m.exec(text)?.[1] ?? '';
    if (!row) errors.push(`${file}: no "| Peer dependencies |" row`);
    for (const [peer, range] of peers) if (row && !row.replace(/\\\|/g, '|').includes(`\`${peer}\` ${range}`)) errors.push(`${file}: the Peer dependencies row does not say \`${peer}\` ${range} (package.json)`);
    if (row && peers.length === 0 && !/\bnone\b/.test(row)) errors.push(`${file}: the Peer dependencies row names peers package.json does not have`);
    results.push({ name: `${file} (install header)`, errors });
  }
}

let passed = 0;
let failed = 0;
for (const snippet of snippets) results.push({ name: `${snippet.name} (${snippet.example ? '@example, ' : ''}${snippet.run ? 'compiled, ran' : 'compiled'})`, errors: snippet.errors });
for (const result of results) {
  if (result.errors.length === 0) passed++;
  else failed++;
  console.log(`${result.errors.length ? 'FAIL' : 'PASS'} ${result.name}`);
  for (const error of result.errors) console.log(`  ${error.replace(/\n/g, '\n    ')}`);
}
if (other.length) {
  failed++;
  results.push({ name: 'docs/snippets program (not in a snippet)', errors: other });
  console.log(`FAIL docs/snippets program (not in a snippet):\n  ${other.join('\n  ')}`);
}
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(results));
const ran = snippets.filter((s) => s.run).length;
const tsdoc = snippets.filter((s) => s.example).length;
console.log(`${snippets.length - tsdoc} README code blocks and ${tsdoc} @example blocks (${ran} run), ${fragments} fragments (not compiled), ${results.length - snippets.length} install checks, from ${files.length} files (${relative(root, work)}/)`);
console.log(`readme-snippets: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
