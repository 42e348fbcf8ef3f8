// The packages a release publishes: every packages/* folder whose package.json is not private.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  [field: string]: unknown;
}

export interface PublicPackage {
  /** The folder under packages/, e.g. `auth`. */
  folder: string;
  dir: string;
  manifest: Manifest;
}

export const readJson = <T = Manifest>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

export function publicPackages(): PublicPackage[] {
  return readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ folder: entry.name, dir: join(root, 'packages', entry.name) }))
    .map((pkg) => ({ ...pkg, manifest: readJson(join(pkg.dir, 'package.json')) }))
    .filter((pkg) => !pkg.manifest.private)
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The pinned pnpm (root `packageManager`), as `npm test` puts it on PATH. */
export const pnpm = 'pnpm';
