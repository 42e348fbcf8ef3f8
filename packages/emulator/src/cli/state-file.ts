// The saved state's file (`x-emulator --state <file>`, `startEmulator({ state })`): loaded at
// start (a file that does not check out is refused and left as it is, and no error quotes it),
// written atomically (a temporary file created exclusively under a random name beside it, fsync,
// rename, fsync of the folder). The server awaits `flush()` before it answers a request that
// changed something, so an answered request is on disk; changes that happen by themselves
// (deliveries, callbacks) are written within WRITE_DELAY_MS. Writes that fall due together share one.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import type { Emulator } from '../emulator.js';
import { EmulatorError, ShapeError } from '../errors.js';
import { parseJsonText, readTextFile, withoutValue } from './json-file.js';

/** The longest a change nobody waits for stays only in memory. */
export const WRITE_DELAY_MS = 250;

export interface StateFile {
  /** Resolves once every change made so far is on disk; rejects when the write failed. */
  flush(): Promise<void>;
  /** Whether something changed since the last write began. */
  readonly dirty: boolean;
  /** Writes what is left, then stops watching. */
  close(): Promise<void>;
}

/** Loads the file into the emulator (when there is one), then keeps it up to date. Throws an EmulatorError (`invalid_state`) that says how to proceed. */
export async function openStateFile(path: string, emulator: Emulator, onError: (error: unknown) => void): Promise<StateFile> {
  const read = await readTextFile(path);
  if (read && 'error' in read) throw new EmulatorError('invalid_state', `Cannot read the state file ${path}: ${read.error}.`);
  if (read) {
    // The reasons name what is wrong, never the file's content.
    const refuse = (why: string): never => {
      throw new EmulatorError(
        'invalid_state',
        `The state file ${path} is not a saved state this emulator can load (${why}). It was left as it is, and nothing was started: move it away to start empty (or give another --state file), or restore a good copy.`,
      );
    };
    const parsed = parseJsonText(read.text);
    if ('error' in parsed) refuse(`not JSON: ${parsed.error}`);
    try {
      emulator.restore((parsed as { value: unknown }).value);
    } catch (error) {
      if (error instanceof ShapeError) refuse(withoutValue(error.message).replace(/\.$/, ''));
      throw error;
    }
  }

  let dirty = false;
  let writing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function write(): Promise<void> {
    const data = JSON.stringify(emulator.snapshot());
    // A new name per write that nobody can guess, created exclusively ('wx': O_CREAT | O_EXCL, which
    // never follows a symbolic link), in the same folder so that the rename replaces the file in one step.
    const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(12).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx', 0o600);
    try {
      try {
        await file.writeFile(data, 'utf8');
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    // The rename itself is durable once the folder is synced (not possible everywhere: best effort).
    const folder = await open(dirname(path), 'r').catch(() => undefined);
    await folder?.sync().catch(() => undefined);
    await folder?.close();
  }

  async function flush(): Promise<void> {
    while (dirty) {
      if (writing) {
        await writing.catch(() => undefined);
        continue;
      }
      dirty = false;
      // The snapshot is taken synchronously at the start of write(): every change made before this line is in it.
      writing = write().then(
        () => {
          writing = undefined;
        },
        (error: unknown) => {
          writing = undefined;
          dirty = true;
          throw new EmulatorError('invalid_state', `Cannot write the state file ${path}: ${(error as Error).message}.`);
        },
      );
      await writing;
    }
    if (writing) await writing;
  }

  const unsubscribe = emulator.events.subscribe(() => {
    dirty = true;
    timer ??= setTimeout(() => {
      timer = undefined;
      flush().catch(onError);
    }, WRITE_DELAY_MS);
    (timer as { unref?: () => void }).unref?.();
  });

  return {
    flush,
    get dirty() {
      return dirty;
    },
    async close() {
      unsubscribe();
      if (timer) clearTimeout(timer);
      await flush();
    },
  };
}
