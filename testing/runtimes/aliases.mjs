// esbuild aliases for bundling checks from the BUILT packages: every public entry point of each
// named package (`@x/auth`, `@x/auth/protocol`, ...) to the ESM file its "exports" names.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function builtAliases(root, packages) {
  const alias = {};
  for (const dir of packages) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8'));
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target !== 'object' || !target.import) continue;
      alias[`${pkg.name}${subpath.slice(1)}`] = join(root, 'packages', dir, target.import.default);
    }
  }
  return alias;
}
