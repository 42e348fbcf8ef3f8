// A JSON file the user named (`--config`, `--state`): read only when it is a regular file, and every
// error says what is wrong with it (cannot be read, not a regular file, not JSON at a line and
// column, a field of the wrong shape) without a piece of what it holds: the path named may be any
// file of the machine (`--config /etc/shadow`), and its content must not reach a terminal or a log.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The largest file read: a saved state at its limits is far smaller. */
export const MAX_JSON_FILE_BYTES = 256 * 1024 * 1024;

/** Why a file could not be read, from its system error: its code and what it means, never the runtime's message. */
export function readFailure(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const meaning: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EISDIR: 'is a folder',
    ELOOP: 'too many symbolic links',
    ENAMETOOLONG: 'name too long',
    ENOTDIR: 'a part of the path is not a folder',
  };
  return typeof code === 'string' ? `${meaning[code] ?? 'cannot be read'} (${code})` : 'cannot be read';
}

// Opened without blocking (a named pipe would wait for a writer), then checked before any byte is read.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function checkStat(stat: { isFile(): boolean; size: number }): string | undefined {
  if (!stat.isFile()) return 'is not a regular file';
  if (stat.size > MAX_JSON_FILE_BYTES) return `is larger than ${MAX_JSON_FILE_BYTES / 1024 / 1024} MB`;
  return undefined;
}

/** The file's text, or why it cannot be read (`{ error }`: a line without its content); `undefined` when there is no file at `path`. */
export async function readTextFile(path: string): Promise<{ text: string } | { error: string } | undefined> {
  let file;
  try {
    file = await open(path, FLAGS);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    return { error: readFailure(error) };
  }
  try {
    const wrong = checkStat(await file.stat());
    return wrong ? { error: wrong } : { text: await file.readFile('utf8') };
  } catch (error) {
    return { error: readFailure(error) };
  } finally {
    await file.close();
  }
}

/** Line and column (from 1) of a character of `text`. */
function lineAndColumn(text: string, index: number): string {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return `at line ${line}, column ${index - before.lastIndexOf('\n')}`;
}

/**
 * The JSON value of `text`, or where it stops being JSON. The parser's own message quotes the text
 * around the mistake: only its position is kept.
 */
export function parseJsonText(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/end of JSON input|Unterminated/i.test(message)) return { error: 'it ends too early' };
    const position = /at position (\d+)/.exec(message)?.[1];
    if (position !== undefined) return { error: lineAndColumn(text, Math.min(Number(position), text.length)) };
    // Without a position the parser stopped at the first character that can start no JSON value.
    const first = /\S/.exec(text);
    if (first && !/[[{"\-\d tfn]/.test(first[0])) return { error: lineAndColumn(text, first.index) };
    return { error: 'it does not parse' };
  }
}

/**
 * A shape error's message without the value it quotes (`...; got "..."`): for a file, the field's
 * path and what goes there are enough, and the value is the file's content.
 */
export function withoutValue(message: string): string {
  return message.replace(/;\s*got\b[\s\S]*$/, ' (the value given is not shown).');
}
