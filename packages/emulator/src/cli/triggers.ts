// The trigger commands: talk to a running emulator's control routes at --url.
//   x-emulator inbound --from <number> --to <number> --text <text> [--customer-id <id>] [--callback-url <url>]
//   x-emulator status <reference id> <code>
//   x-emulator advance <duration>
//   x-emulator resend <callback id>
//   x-emulator script <number | prefix*> <step>...
//   x-emulator chaos <duplicate|reorder|late|drop> [--copies n] [--delay 30s] [--number digits] [--product p] [--times n]
import { parseDuration } from '../state/clock.js';
import { STATUS_TEXT } from '../service/codes.js';
import { CALLBACK_CHAOS } from '../state/faults.js';
import { isHttpUrl } from '../service/url.js';
import { parse, RunError, UsageError } from './args.js';

export const DEFAULT_URL = 'http://127.0.0.1:4010';

const COMMON = {
  url: { type: 'string' },
  'control-token': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Target {
  url: string;
  token: string | undefined;
  json: boolean;
}

function target(values: { url?: string | undefined; 'control-token'?: string | undefined; json?: boolean | undefined }): Target {
  const url = (values.url ?? process.env.X_EMULATOR_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  if (!isHttpUrl(url)) throw new UsageError(`--url must be the emulator's base URL, such as ${DEFAULT_URL}; got "${url.slice(0, 80)}"`);
  return { url, token: values['control-token'] ?? process.env.X_EMULATOR_CONTROL_TOKEN, json: values.json === true };
}

/** POSTs JSON to a control route; the answer's JSON, or a RunError with the emulator's own message. */
async function post(t: Target, path: string, body: unknown): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(t.token !== undefined ? { authorization: `Bearer ${t.token}` } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const reason = (error as { cause?: { code?: string; message?: string } }).cause;
    const cause = reason?.code ?? reason?.message ?? (error instanceof Error ? error.message : 'error');
    throw new RunError(`no emulator answers at ${t.url} (${cause}): start one with "x-emulator", or pass --url`);
  }
  let answer: Record<string, unknown>;
  try {
    answer = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new RunError(`${t.url} answered ${response.status} without JSON: is it an x-emulator?`);
  }
  if (!response.ok) throw new RunError(typeof answer.error === 'string' ? answer.error : `the emulator answered ${response.status}`);
  return answer;
}

const print = (line: string) => process.stdout.write(`${line}\n`);

export async function inbound(args: string[]): Promise<void> {
  const { values } = parse(args, { ...COMMON, from: { type: 'string' }, to: { type: 'string' }, text: { type: 'string' }, 'customer-id': { type: 'string' }, 'callback-url': { type: 'string' } }, 0, 'x-emulator inbound');
  for (const name of ['from', 'to', 'text'] as const) if (values[name] === undefined) throw new UsageError(`x-emulator inbound needs --${name} (x-emulator inbound --from 15555550100 --to 15555559999 --text STOP)`);
  const t = target(values);
  const answer = await post(t, '/_emulator/inbound', {
    from: values.from,
    to: values.to,
    text: values.text,
    ...(values['customer-id'] !== undefined ? { customer_id: values['customer-id'] } : {}),
    ...(values['callback-url'] !== undefined ? { callback_url: values['callback-url'] } : {}),
  });
  print(t.json ? JSON.stringify(answer) : `inbound SMS from ${values.from} to ${values.to}: callback to ${String(answer.callback_url)} (reference id ${String(answer.reference_id)})`);
}

export async function status(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, COMMON, 2, 'x-emulator status');
  const [reference, code] = positionals;
  if (reference === undefined || code === undefined) throw new UsageError('x-emulator status takes a reference id and a final status code: x-emulator status 0123456789ABCDEF0123456789ABCDEF 207');
  if (!/^\d{3,4}$/.test(code)) throw new UsageError(`the status code must be a number such as 200 or 207; got "${code.slice(0, 20)}"`);
  const t = target(values);
  const answer = await post(t, `/_emulator/transactions/${encodeURIComponent(reference)}/status`, { code: Number(code) });
  const tx = answer.transaction as { referenceId: string; status: { code: number; description: string }; callbackUrl?: string };
  print(t.json ? JSON.stringify(answer) : `${tx.referenceId}: status ${tx.status.code} ${STATUS_TEXT[tx.status.code] ?? tx.status.description}${tx.callbackUrl ? `; callback to ${tx.callbackUrl}` : ''}`);
}

export async function advance(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, COMMON, 1, 'x-emulator advance');
  const [text] = positionals;
  const ms = text === undefined ? undefined : parseDuration(text);
  if (ms === undefined || ms < 1) throw new UsageError(`x-emulator advance takes a duration: 10m, 30s, 1h30m, 1500ms, 2d or milliseconds; got "${(text ?? '').slice(0, 20)}"`);
  const t = target(values);
  const answer = await post(t, '/_emulator/clock/advance', { ms });
  print(t.json ? JSON.stringify(answer) : `clock advanced by ${text}: now ${new Date(answer.now as number).toISOString()} (${String(answer.offsetMs)} ms ahead)`);
}

export async function resend(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, COMMON, 1, 'x-emulator resend');
  const [id] = positionals;
  if (id === undefined || !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError('x-emulator resend takes the id of a callback attempt (GET /_emulator/callbacks lists them): x-emulator resend 3');
  const t = target(values);
  const answer = await post(t, `/_emulator/callbacks/${id}/resend`, undefined);
  const attempt = answer.attempt as { id: number; url: string; status?: number; error?: string; ms?: number };
  print(t.json ? JSON.stringify(answer) : `callback #${id} re-sent as #${attempt.id} to ${attempt.url}: ${attempt.status ?? `failed (${attempt.error ?? 'no answer'})`}${attempt.ms !== undefined ? ` in ${attempt.ms} ms` : ''}`);
}

/** `x-emulator chaos <kind>`: a callback fault rule (POST /_emulator/faults); the emulator checks every field. */
export async function chaos(args: string[]): Promise<void> {
  const { values, positionals } = parse(
    args,
    { ...COMMON, copies: { type: 'string' }, delay: { type: 'string' }, number: { type: 'string' }, product: { type: 'string' }, times: { type: 'string' } },
    1,
    'x-emulator chaos',
  );
  const [kind] = positionals;
  if (kind === undefined || !(CALLBACK_CHAOS as readonly string[]).includes(kind)) {
    throw new UsageError(`x-emulator chaos takes a kind: ${CALLBACK_CHAOS.join(', ')} (x-emulator chaos reorder --number 1555 --product messaging); got "${(kind ?? '').slice(0, 20)}"`);
  }
  const whole = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--${name} must be a whole number; got "${value.slice(0, 20)}"`);
    return Number(value);
  };
  const rule = {
    type: 'callback',
    chaos: kind,
    ...(values.copies !== undefined ? { copies: whole('copies', values.copies) } : {}),
    ...(values.delay !== undefined ? { delayMs: parseDuration(values.delay) ?? whole('delay', values.delay) } : {}),
    ...(values.number !== undefined ? { phoneNumber: values.number } : {}),
    ...(values.product !== undefined ? { product: values.product } : {}),
    ...(values.times !== undefined ? { times: whole('times', values.times) } : {}),
  };
  const t = target(values);
  const answer = await post(t, '/_emulator/faults', rule);
  print(t.json ? JSON.stringify(answer) : `callback fault added: ${kind}${values.number ? ` for numbers starting ${values.number}` : ''}${values.product ? ` (${values.product})` : ''}; ${(answer.faults as unknown[]).length} fault rule(s) in effect`);
}

/**
 * `x-emulator script <number | prefix*> <step>...`: a number script (POST /_emulator/numbers).
 * Steps: sms:delivered, sms:undeliverable, sms:<status>, call:answered, call:not_answered,
 * call:busy, call:<status>, each with an optional delay (sms:delivered:5s); phoneid:<TYPE>[:<risk>].
 */
export async function script(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, COMMON, 1 + 100, 'x-emulator script');
  const [who, ...words] = positionals;
  const example = 'x-emulator script 15555550100 sms:undeliverable call:answered:2s (a prefix ends with *: 1555*)';
  if (who === undefined || words.length === 0) throw new UsageError(`x-emulator script takes a number (or prefix*) and steps: ${example}`);
  const steps = words.map((word) => {
    const [channel, what, extra] = word.split(':');
    if (channel === 'phoneid') {
      if (!what) throw new UsageError(`"${word.slice(0, 40)}": phoneid takes a type and an optional risk, such as phoneid:VOIP:700`);
      return { phoneid: { type: what, ...(extra !== undefined ? { risk: Number(extra) } : {}) } };
    }
    if ((channel !== 'sms' && channel !== 'call') || !what) throw new UsageError(`"${word.slice(0, 40)}" is not a step: ${example}`);
    const delayMs = extra === undefined ? undefined : parseDuration(extra);
    if (extra !== undefined && delayMs === undefined) throw new UsageError(`"${word.slice(0, 40)}": the delay must be a duration such as 5s or 1500ms`);
    return { [channel]: /^\d+$/.test(what) ? Number(what) : what, ...(delayMs !== undefined ? { delayMs } : {}) };
  });
  const rule = who.endsWith('*') ? { prefix: who.slice(0, -1), steps } : { number: who, steps };
  const t = target(values);
  const answer = await post(t, '/_emulator/numbers', rule);
  print(t.json ? JSON.stringify(answer) : `script added for ${who}: ${words.join(', ')}; ${(answer.numbers as unknown[]).length} script(s) in effect`);
}
