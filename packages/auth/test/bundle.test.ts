// What a user's bundler ships: the entry points bundled from source with esbuild (minified,
// tree-shaken, as size-limit measures them (.size-limit.cjs)), and which @noble/hashes modules end up in them.
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('..', import.meta.url));

/** The input files that contribute bytes to a bundle of `code` (resolved from the package). */
async function modulesIn(code: string): Promise<string[]> {
  const result = await build({
    stdin: { contents: code, resolveDir: dir, loader: 'ts' },
    bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, treeShaking: true, metafile: true,
    mainFields: ['module', 'main'],
  });
  const [output] = Object.values(result.metafile.outputs);
  return Object.entries(output!.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
}

const sha1 = (modules: string[]) => modules.some((path) => path.endsWith('@noble/hashes/legacy.js'));
const sha256 = (modules: string[]) => modules.some((path) => path.endsWith('@noble/hashes/sha2.js'));

describe('bundles', () => {
  it('signing only (signRequest, createSigner) carries SHA-256 and not SHA-1', async () => {
    const modules = await modulesIn("export { signRequest, createSigner } from './src/index.ts';");
    expect(sha256(modules)).toBe(true);
    expect(sha1(modules)).toBe(false);
  });

  it("signing carries @noble/hashes' own HMAC, and no HMAC of this package's making", async () => {
    const modules = await modulesIn("export { signRequest, createSigner } from './src/index.ts';");
    expect(modules.some((path) => path.endsWith('@noble/hashes/hmac.js'))).toBe(true);
  });

  it('enableSha1 brings SHA-1 in', async () => {
    expect(sha1(await modulesIn("export { signRequest, enableSha1 } from './src/index.ts';"))).toBe(true);
  });

  it('verification carries SHA-1 (it accepts both algorithms)', async () => {
    expect(sha1(await modulesIn("export { verifyRequest } from './src/index.ts';"))).toBe(true);
  });
});
