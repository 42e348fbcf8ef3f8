// What idempotency keys cost in the memory store, and that it is all returned once they expire:
// test/fixtures/idempotency-memory.mjs sends 50 000 keys through the BUILT @x/client/idempotency
// (no network) in a child process run with --expose-gc, and reports the heap after a full gc.
// The bound on a live key is generous (about twice what it measures: 0.95 KB with a typical SMS
// answer); what must hold exactly is that expired keys leave the store and the heap.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the memory store under idempotency keys', () => {
  it('a live key costs well under 2 KB; once every key expired the store holds none and the heap is back', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/idempotency-memory.mjs', import.meta.url));
    const { stdout } = await run(process.execPath, ['--expose-gc', fixture], { env: { ...process.env, KEYS: '50000' }, timeout: 60_000 });
    const measured = JSON.parse(stdout) as { keys: number; live: number; bytesPerKey: number; sizeAfterExpiry: number; bytesPerKeyAfterExpiry: number };
    expect(measured.live).toBe(50_000);
    expect(measured.bytesPerKey).toBeLessThan(2048);
    expect(measured.sizeAfterExpiry).toBe(0);
    // What stays is the process's own growth (compiled code), shared by all keys: about 50 B each here.
    expect(measured.bytesPerKeyAfterExpiry).toBeLessThan(300);
  }, 90_000);
});
