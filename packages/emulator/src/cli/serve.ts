// `x-emulator [serve]`: start an emulator, print where it listens and one line per request and
// per callback attempt.
import { AuthError } from '@x/auth';
import { decodeCredentials } from '@x/auth/protocol';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DEFAULT_CUSTOMER, type Customer } from '../emulator.js';
import { EmulatorError, ShapeError } from '../errors.js';
import { MAX_RATE_PER_SECOND } from '../state/faults.js';
import { parseEmulatorConfig, type EmulatorConfig } from '../state/scripts.js';
import type { Logger } from '../logger.js';
import { startEmulator } from '../node.js';
import { INSPECTOR_PATH } from '../paths.js';
import { isHttpUrl, maskCredentials } from '../service/url.js';
import { parse, RunError, UsageError, wholeNumber } from './args.js';
import { parseJsonText, readFailure, readTextFile, withoutValue } from './json-file.js';
import { callbackJson, callbackLine, requestJson, requestLine, type Style } from './format.js';

export const SERVE_OPTIONS = {
  port: { type: 'string', short: 'p', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  'control-token': { type: 'string' },
  customer: { type: 'string', short: 'c', multiple: true },
  'callback-url': { type: 'string' },
  'delivery-delay': { type: 'string' },
  'journal-size': { type: 'string' },
  'rate-limit': { type: 'string' },
  'tls-key': { type: 'string' },
  'tls-cert': { type: 'string' },
  cors: { type: 'boolean' },
  open: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  json: { type: 'boolean' },
  state: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;


/** `--customer <id>:<key>`, checked as the emulator will use it; the reason never shows the key. */
export function parseCustomer(pair: string, callbackUrl: string | undefined): Customer {
  const colon = pair.indexOf(':');
  if (colon <= 0) throw new UsageError('--customer takes "<customer id>:<api key>" (the key as issued, base64); got something without a customer id and a colon');
  const customer: Customer = { customerId: pair.slice(0, colon), apiKey: pair.slice(colon + 1), ...(callbackUrl ? { callbackUrl } : {}) };
  try {
    decodeCredentials(customer);
  } catch (error) {
    if (error instanceof AuthError) throw new UsageError(`--customer ${JSON.stringify(customer.customerId.slice(0, 64))}: ${error.message}`);
    throw error;
  }
  return customer;
}

/**
 * `--config <file>`: a seed file (number scripts, fault rules), checked; a mistake is one line naming
 * the file and what is wrong (the field's path), never a piece of what the file holds.
 */
export async function readConfig(file: string): Promise<EmulatorConfig> {
  const read = (await readTextFile(file)) ?? { error: readFailure({ code: 'ENOENT' }) };
  if ('error' in read) throw new UsageError(`cannot read --config ${file}: ${read.error}`);
  const parsed = parseJsonText(read.text);
  if ('error' in parsed) throw new UsageError(`--config ${file} is not JSON (${parsed.error}); it holds {"numbers": [...], "faults": [...]}`);
  try {
    return parseEmulatorConfig(parsed.value);
  } catch (error) {
    if (error instanceof ShapeError) throw new UsageError(`--config ${file}: ${withoutValue(error.message)}`);
    throw error;
  }
}

/** Opens a URL in the default browser, detached; when that fails, says so and prints the URL (never fatal). */
export function openInBrowser(url: string, warn: (line: string) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]];
  const fail = (why: string) => warn(`x-emulator: could not open a browser (${command}: ${why}); open ${url} yourself`);
  try {
    const child = spawn(command as string, args as string[], { detached: true, stdio: 'ignore' });
    child.once('error', (error: NodeJS.ErrnoException) => fail(error.code === 'ENOENT' ? 'not found' : error.message));
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) fail(`exit code ${code}`);
    });
    child.unref();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

export async function serve(args: string[], help: () => void): Promise<void> {
  const { values } = parse(args, SERVE_OPTIONS, 0, 'x-emulator');
  if (values.help) return help();
  const port = wholeNumber(values.port, '--port', 0, 65_535)!;
  const deliveryDelayMs = wholeNumber(values['delivery-delay'], '--delivery-delay', 0, 86_400_000);
  const journalSize = wholeNumber(values['journal-size'], '--journal-size', 0, 100_000);
  const perSecond = wholeNumber(values['rate-limit'], '--rate-limit', 1, MAX_RATE_PER_SECOND);
  const callbackUrl = values['callback-url'];
  if (callbackUrl !== undefined && !isHttpUrl(callbackUrl)) throw new UsageError(`--callback-url must be an http(s) URL; got "${maskCredentials(callbackUrl).slice(0, 80)}"`);
  const given = values.customer !== undefined;
  const customers = given ? values.customer!.map((pair) => parseCustomer(pair, callbackUrl)) : [{ ...DEFAULT_CUSTOMER, ...(callbackUrl ? { callbackUrl } : {}) }];
  if ((values['tls-key'] === undefined) !== (values['tls-cert'] === undefined)) throw new UsageError('--tls-key and --tls-cert go together');
  let tls: { key: Buffer; cert: Buffer } | undefined;
  if (values['tls-key'] !== undefined) {
    try {
      tls = { key: readFileSync(values['tls-key']), cert: readFileSync(values['tls-cert']!) };
    } catch (error) {
      throw new UsageError(`cannot read the TLS key or certificate: ${(error as Error).message}`);
    }
  }

  const config = values.config !== undefined ? await readConfig(values.config) : {};

  const json = values.json === true;
  const quiet = values.quiet === true;
  const style: Style = { color: !json && process.stdout.isTTY === true && process.env.NO_COLOR === undefined };
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const logger: Logger = {
    warn: (message) => (json ? err(JSON.stringify({ type: 'warning', message })) : err(`x-emulator: warning: ${message}`)),
    error: (message, details) => {
      const cause = details?.error instanceof Error ? details.error : undefined;
      if (json) err(JSON.stringify({ type: 'error', message, ...(cause ? { error: cause.message } : {}) }));
      else err(`x-emulator: error: ${message}${cause ? `\n${cause.stack ?? cause.message}` : ''}`);
    },
  };

  const running = await startEmulator({
    port,
    hostname: values.host,
    customers,
    logger,
    ...(values['control-token'] !== undefined ? { controlToken: values['control-token'] } : {}),
    ...(deliveryDelayMs !== undefined ? { deliveryDelayMs } : {}),
    ...(journalSize !== undefined ? { journalSize } : {}),
    ...(values.cors ? { cors: true } : {}),
    ...(tls ? { tls } : {}),
    ...(values.state !== undefined ? { state: values.state } : {}),
    ...(config.numbers ? { numbers: config.numbers } : {}),
  }).catch((error: unknown) => {
    if (error instanceof EmulatorError && error.code === 'address_in_use') {
      throw new RunError(`port ${port} on ${values.host} is already in use (another x-emulator?): stop that process, or choose another port with --port (0 picks a free one)`);
    }
    if (error instanceof EmulatorError && error.code === 'invalid_state') throw new RunError(error.message);
    if (error instanceof EmulatorError) throw new UsageError(error.message);
    throw new RunError(`cannot listen on ${values.host}:${port}: ${error instanceof Error ? error.message : String(error)}`);
  });

  for (const rule of config.faults ?? []) running.emulator.faults.add(rule);
  if (perSecond !== undefined) running.emulator.faults.add({ type: 'rate', perSecond });
  const inspector = `${running.url}${INSPECTOR_PATH}${running.controlToken !== undefined ? `#token=${encodeURIComponent(running.controlToken)}` : ''}`;
  if (json) {
    out(
      JSON.stringify({
        type: 'listening',
        url: running.url,
        inspector: `${running.url}${INSPECTOR_PATH}`,
        customers: customers.map((c) => ({ customerId: c.customerId, ...(c === customers[0] && !given ? { apiKey: c.apiKey, publicTestAccount: true } : {}) })),
        ...(callbackUrl ? { callbackUrl: maskCredentials(callbackUrl) } : {}),
        cors: values.cors === true,
        ...(running.controlToken !== undefined ? { controlToken: running.controlToken } : {}),
      }),
    );
  } else {
    out(`x-emulator listening on ${running.url}`);
    out(`  inspector:   ${running.url}${INSPECTOR_PATH}`);
    for (const c of customers) {
      out(`  customer id: ${c.customerId}`);
      // The built-in account's key is public (it signs nothing real); a key you gave is yours: never printed.
      out(given ? '  api key:     (the one given with --customer; not printed)' : `  api key:     ${c.apiKey}  (the built-in test account: public, never use it elsewhere)`);
    }
    if (callbackUrl) out(`  callbacks:   ${maskCredentials(callbackUrl)}`);
    if (values.state !== undefined) out(`  state:       ${values.state} (${running.emulator.transactions.size} transactions loaded)`);
    out(`  cors:        ${values.cors ? 'on (web pages of any origin may call the service routes)' : 'off (--cors lets web pages call the service routes)'}`);
    // startEmulator has warned (stderr) when the address is not loopback.
    if (running.controlToken !== undefined) out(`  control token: ${running.controlToken}  (send "Authorization: Bearer <token>" to /_emulator/*)`);
  }
  if (!quiet) {
    running.emulator.events.subscribe((event) => {
      if (event.type === 'journal') out(json ? requestJson(event.data) : requestLine(event.data, style));
      else if (event.type === 'callback') out(json ? callbackJson(event.data) : callbackLine(event.data, style));
    });
  }
  if (values.open) openInBrowser(inspector, err);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
