// On Node, signing is native (node:crypto through @x/auth's `#hashes`): after importing @x/auth and
// @x/client, creating a client, and signing (directly and by a send), no file of @noble/hashes is
// loaded, in CommonJS (require.cache) and in ESM (a module hook records every URL loaded). Under
// the browser condition the same probes see the pure HMAC loaded: they can tell.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

function loaded(file: string, condition?: string): string[] {
  const args = [...(condition ? [`--conditions=${condition}`] : []), fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url))];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as string[];
}
const noble = (files: string[]) => files.filter((f) => f.includes('@noble/hashes') || f.includes('@noble+hashes'));
const auth = (files: string[], name: string) => files.some((f) => f.replaceAll('\\', '/').includes(`/auth/dist/${name}`));

describe.each(['loaded-modules.cjs', 'loaded-modules.mjs'])('%s', (file) => {
  it('on Node: @noble/hashes is never loaded, node:crypto signs', () => {
    const files = loaded(file);
    expect(noble(files)).toEqual([]);
    expect(auth(files, file.endsWith('.cjs') ? 'hashes-node.cjs' : 'hashes-node.js')).toBe(true);
    expect(auth(files, file.endsWith('.cjs') ? 'hashes.cjs' : 'hashes.js')).toBe(false);
  });

  it('under the browser condition the pure HMAC is what signs (the probe sees it)', () => {
    const files = loaded(file, 'browser');
    expect(auth(files, file.endsWith('.cjs') ? 'hashes.cjs' : 'hashes.js')).toBe(true);
    expect(auth(files, 'hashes-node')).toBe(false);
    // The CommonJS build carries noble inside hashes.cjs; the ESM build imports it.
    if (file.endsWith('.mjs')) expect(noble(files).some((f) => f.endsWith('/sha2.js'))).toBe(true);
  });
});

// Cold start: `import` / `require` + `createClient()` loads no built-in of the network
// or crypto stacks (they are read at the first request and the first signature); the first send
// loads them, so the probe can tell.
const stacks = (entries: string[]) => entries.filter((m) => /^NativeModule (crypto|http|https|net|tls|stream|internal\/crypto\/\w+|_http_client)$/.test(m));
/** What `import` or `require` of @x/client and createClient() loaded, and with `send`, one SMS after. */
function coldLoaded(how: 'import' | 'require', then?: 'send'): string[] {
  const run = spawnSync(process.execPath, [fileURLToPath(new URL('./fixtures/cold-builtins.cjs', import.meta.url)), how, ...(then ? [then] : [])], { encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as string[];
}
describe.each(['import', 'require'] as const)('%s', (how) => {
  it('creating a client loads neither node:crypto nor node:http/https/net/tls', () => {
    expect(stacks(coldLoaded(how))).toEqual([]);
  });

  it('the first send loads them (signing and the request)', () => {
    const entries = stacks(coldLoaded(how, 'send'));
    for (const name of ['crypto', 'http', '_http_client']) expect(entries).toContain(`NativeModule ${name}`);
  });
});
