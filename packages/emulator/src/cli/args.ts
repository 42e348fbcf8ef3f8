// Command-line parsing: node:util parseArgs, with its errors turned into one line that says what to do.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** A failure at run time (port in use, no emulator at --url, a refused trigger): one line, exit code 1. */
export class RunError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, strict; an unknown option, a missing value or an extra word is a UsageError naming it. */
export function parse<T extends Options>(args: string[], options: T, positionals: number, command: string): ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: boolean }>> {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: boolean }>>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    const name = /'[^']*?(--[\w-]+)/.exec(message)?.[1] ?? /'(-[^', ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option ${name ?? message} for ${command} (x-emulator --help lists the options)`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${name ?? 'an option'} needs a value (x-emulator --help)`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new UsageError(`unexpected argument for ${command}: ${/'([^']*)'/.exec(message)?.[1] ?? message} (x-emulator --help)`);
    throw new UsageError(message.split('\n')[0]!);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument for ${command}: ${parsed.positionals[positionals]} (x-emulator --help)`);
  return parsed;
}

/** A whole number option in a range. */
export function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value) || Number(value) < min || Number(value) > max) throw new UsageError(`${name} must be a whole number from ${min} to ${max}; got "${value.slice(0, 40)}"`);
  return Number(value);
}
