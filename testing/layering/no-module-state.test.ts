// No module-level mutable state in the code that signs and verifies (@x/auth, @x/webhooks and the
// framework adapters): no memo caches of the last date, customer id or key, no lazily kept
// singletons, no registries of requests. State lives in the objects that own it (a signer, a key
// cache, a middleware), so two of them never share it by accident.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGES = ['auth', 'webhooks', 'express', 'fastify', 'hono'];

/**
 * The one module-level binding allowed, by file and name: the explicit, documented SHA-1 opt-in
 * (`enableSha1()`, a switch the application turns on once, never a cache).
 */
const ALLOWED = new Set(['packages/auth/src/hmac.ts: sha1ForSigning']);

/** A top-level `let` / `var`, or a top-level WeakMap / WeakSet (a registry keyed by requests). */
const MUTABLE = /^(?:export\s+)?(?:(?:let|var)\s+([A-Za-z_$][\w$]*)|const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*new\s+Weak(?:Map|Set)\b)/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

/** `file: name` of every module-level mutable binding under `src`. */
function moduleState(src: string): string[] {
  return sourceFiles(src).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(MUTABLE)].map((m) => `${relative(root, file).split('\\').join('/')}: ${m[1] ?? m[2]}`),
  );
}

describe('no module-level state in signing and verifying code', () => {
  it('finds a top-level let, var or WeakMap registry, exported or not', () => {
    const text = "let last = '';\nexport let n = 0;\nconst seen = new WeakMap<object, string>();\nfunction f() {\n  let local = 1;\n}\nconst TABLE = { a: 1 };\n";
    expect([...text.matchAll(MUTABLE)].map((m) => m[1] ?? m[2])).toEqual(['last', 'n', 'seen']);
  });

  for (const name of PACKAGES) {
    const src = join(root, 'packages', name, 'src');
    it.skipIf(!existsSync(src))(`packages/${name}/src`, () => {
      expect(moduleState(src).filter((binding) => !ALLOWED.has(binding))).toEqual([]);
    });
  }
});
