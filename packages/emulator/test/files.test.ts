// The files the Node server reads and writes: a seed file (`--config`) and the saved state
// (`--state`). An error about a file says what is wrong with it (not JSON, at which line; which
// field; not a regular file) and never echoes what the file holds. The saved state is written
// through a temporary file created exclusively under an unpredictable name, so a symlink planted
// where the temporary file used to be is never followed.
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/cli/serve.js';
import { openStateFile } from '../src/cli/state-file.js';
import { createEmulator, EmulatorError } from '../src/index.js';
import { local } from './helpers.js';

const dir = () => mkdtempSync(join(tmpdir(), 'x-emulator-files-'));

/** The message of what `run` throws. */
async function messageOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

/** Every run of 6 characters of `content` that is not blank, so that no piece of it may appear in an error. */
function pieces(content: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 6 <= content.length; i++) {
    const piece = content.slice(i, i + 6);
    if (/\S{3}/.test(piece)) out.add(piece);
  }
  return [...out];
}

const PASSWD = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nhunter2secret:x:1000:1000::/home/h:/bin/sh\n';

describe('--config never echoes the file', () => {
  // [case, content, what the error says, the part of the content that must not appear (field names may)]
  const cases: Array<[string, string, RegExp, string]> = [
    ['a file that is not JSON (/etc/passwd)', PASSWD, /is not JSON \(at line 1, column 1\)/, PASSWD],
    ['JSON cut short', '{"numbers": [{"number": "1555secretdigits', /is not JSON \(it ends too early\)/, '1555secretdigits'],
    ['JSON with a mistake inside', '{"numbers": [] "zq-secret-word"}', /is not JSON \(at line 1, column 1[0-9]\)/, 'zq-secret-word'],
    ['JSON with a bad value', '{"faults":[{"type":"status","status":"my-secret-token-value"}]}', /faults\[0\]\.status: status must be one of 429, 500, 502, 503, 504 \(the value given is not shown\)/, 'my-secret-token-value'],
    ['JSON with a string where an array goes', '{"numbers":"a-secret-in-the-wrong-place"}', /numbers: must be an array \(the value given is not shown\)/, 'a-secret-in-the-wrong-place'],
    ['JSON of the wrong kind', '"just-a-secret-string"', /config: must be an object \(the value given is not shown\)/, 'just-a-secret-string'],
  ];
  it.each(cases)('%s: says what is wrong, with no piece of the content', async (_, content, expected, secret) => {
    const file = join(dir(), 'config.json');
    writeFileSync(file, content);
    const message = await messageOf(() => readConfig(file));
    expect(message).toMatch(expected);
    for (const piece of pieces(secret)) expect(message).not.toContain(piece);
  });

  it('a folder, a device or a missing file: says which, without reading it', async () => {
    const folder = dir();
    expect(await messageOf(() => readConfig(folder))).toMatch(/is not a regular file/);
    expect(await messageOf(() => readConfig('/dev/zero'))).toMatch(/is not a regular file/);
    expect(await messageOf(() => readConfig(join(folder, 'missing.json')))).toMatch(/cannot read --config .*missing\.json: no such file \(ENOENT\)/);
  });
});

describe('the saved state never echoes the file', () => {
  it.each([
    ['not JSON', PASSWD, PASSWD],
    ['a bad field', '{"format":"zzqq-but-secret-text","version":1}', 'zzqq-but-secret-text'],
  ])('%s: refused with what is wrong, with no piece of the content', async (_, content, secret) => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, content);
    const emulator = createEmulator();
    try {
      const message = await messageOf(() => openStateFile(file, emulator, () => undefined));
      expect(message).toMatch(/is not a saved state this emulator can load/);
      for (const piece of pieces(secret)) expect(message).not.toContain(piece);
      expect(readFileSync(file, 'utf8')).toBe(content);
    } finally {
      emulator.close();
    }
  });
});

describe('the saved state is written through an exclusive temporary file', () => {
  it('a symlink planted at the old predictable temporary name is never followed; the file is 0600 and no temporary file stays', async () => {
    const folder = dir();
    const file = join(folder, 'state.json');
    const target = join(folder, 'victim.txt');
    writeFileSync(target, 'precious');
    // The names the temporary file had (this process's pid) and any other pid an attacker may guess.
    for (const pid of [process.pid, process.pid + 1, 1]) symlinkSync(target, join(folder, `.state.json.${pid}.tmp`));
    const planted = readdirSync(folder).sort();
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    const state = await openStateFile(file, emulator, () => undefined);
    try {
      expect((await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'saved', message_type: 'ARN' } })).status).toBe(200);
      await state.flush();
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550101', message: 'saved again', message_type: 'ARN' } });
      await state.flush();
    } finally {
      await state.close();
      emulator.close();
    }
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(file, 'utf8')).outbox.map((m: { text: string }) => m.text)).toEqual(['saved', 'saved again']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Only what was there before and the state itself: no temporary file left behind.
    expect(readdirSync(folder).sort()).toEqual([...planted, 'state.json'].sort());
  });

  it('a state path that is itself a symlink to another file is replaced, never written through', async () => {
    const folder = dir();
    const target = join(folder, 'victim.txt');
    writeFileSync(target, 'precious');
    const file = join(folder, 'state.json');
    symlinkSync(join(folder, 'absent.json'), file);
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    const state = await openStateFile(file, emulator, () => undefined);
    try {
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'saved', message_type: 'ARN' } });
      await state.flush();
    } finally {
      await state.close();
      emulator.close();
    }
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(existsSync(join(folder, 'absent.json'))).toBe(false);
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
  });

  it('a write that fails says so and leaves the saved file as it was', async () => {
    const folder = dir();
    const file = join(folder, 'state.json');
    const emulator = createEmulator({ deliveryDelayMs: 0 });
    const state = await openStateFile(join(folder, 'gone', 'state.json'), emulator, () => undefined);
    try {
      await local(emulator, 'POST', '/v1/messaging', { form: { phone_number: '15555550100', message: 'x', message_type: 'ARN' } });
      const error = await state.flush().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EmulatorError);
      expect((error as EmulatorError).message).toMatch(/Cannot write the state file .*gone.*ENOENT/);
    } finally {
      await state.close().catch(() => undefined);
      emulator.close();
    }
    expect(existsSync(file)).toBe(false);
  });
});
