// No module-level mutable state in the emulator's source (its browser app aside): no memo caches
// (the date per second, the last event framed, the document built once), no pools. Each emulator
// holds its own state. The text codecs made at first use (Jest's jsdom has none at import) hold no
// data and are the only module-level variables allowed.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src', import.meta.url));
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? (entry.name === 'app' ? [] : files(join(dir, entry.name))) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
/** Made at first use, hold no data: a TextEncoder, a fatal TextDecoder. */
const CODECS = new Set(['control/stream.ts: encoder', 'service/body.ts: strictUtf8']);

describe('module-level state', () => {
  it('no module-level let or var in the emulator source, except the lazily made text codecs', () => {
    const found = files(src).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/^(?:let|var)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => `${relative(src, file)}: ${m[1]}`),
    );
    expect(found.filter((name) => !CODECS.has(name))).toEqual([]);
  });
});
