// Scripted numbers: per number (or prefix), what each channel does next. A script is a list of
// steps consumed in order, each channel taking the first step of its own ("this number's SMS
// fails, then its call is answered"); when a number has no step left for a channel, the default
// rules apply: the eight test suffixes of numbers.ts, else a mobile phone that receives everything.
import { FINAL_STATUS } from '../service/codes.js';
import { TEST_NUMBERS } from '../service/numbers.js';
import { shapeChecks } from '../service/shape.js';
import { FaultRuleError } from '../errors.js';
import { parseFaultRule, type FaultRule } from './faults.js';

/** What an SMS does: `delivered` (200), `undeliverable` (207), or any final SMS status; `delayMs` from 290 to it (default: the delivery delay). */
export interface SmsStep {
  sms: 'delivered' | 'undeliverable' | number;
  delayMs?: number;
}
/** What a call does: `answered` (100), `not_answered` (101), `busy` (107), or any final call status; `delayMs` from 103 to it (default: the call delay). */
export interface CallStep {
  call: 'answered' | 'not_answered' | 'busy' | number;
  delayMs?: number;
}
/** What the next PhoneID (its `phone_type`) or Score / Intelligence (its `risk` score) answer says. */
export interface PhoneIdStep {
  phoneid: { type?: PhoneTypeName; risk?: number };
}
export type ScriptStep = SmsStep | CallStep | PhoneIdStep;
export type ScriptChannel = 'sms' | 'call' | 'phoneid';

/** A script for one number (`number`, its digits) or every number that starts with `prefix`. */
export type NumberScript = ({ number: string; prefix?: undefined } | { prefix: string; number?: undefined }) & { steps: ScriptStep[] };

/** A built-in rule: numbers ending in `suffix` (the test numbers). */
export interface DefaultNumberRule {
  suffix: string;
  meaning: string;
  sms: number;
  call: number;
  phoneid: { type: string; risk?: number };
}

/** PhoneID `phone_type` names and their codes (service.md §16.1). */
export const PHONE_TYPES = { FIXED_LINE: '1', MOBILE: '2', PREPAID: '3', TOLLFREE: '4', VOIP: '5', PAGER: '6', PAYPHONE: '7', INVALID: '8', RESTRICTED: '9', PERSONAL: '10', VOICEMAIL: '11', OTHER: '20' } as const;
export type PhoneTypeName = keyof typeof PHONE_TYPES;
const SMS_WORDS: Record<string, number> = { delivered: 200, undeliverable: 207 };
const CALL_WORDS: Record<string, number> = { answered: 100, not_answered: 101, busy: 107 };
/** The most steps a script holds, and scripts an emulator keeps. */
export const MAX_SCRIPT_STEPS = 1_000;
export const MAX_SCRIPTS = 10_000;
const MAX_DELAY_MS = 86_400_000;

/** The final status a step gives its channel. */
export const stepStatus = (step: SmsStep | CallStep): number => ('sms' in step ? (typeof step.sms === 'number' ? step.sms : SMS_WORDS[step.sms]!) : typeof step.call === 'number' ? step.call : CALL_WORDS[step.call]!);

const { object, array, string, integer, oneOf, fail } = shapeChecks('invalid_script');
const DIGITS = /^[0-9]{1,32}$/;

function checkStep(path: string, value: unknown): ScriptStep {
  const raw = value as Record<string, unknown> | null;
  const channel = typeof raw === 'object' && raw !== null ? (['sms', 'call', 'phoneid'] as const).find((c) => c in raw) : undefined;
  if (!channel) fail(path, 'must be a step: {"sms":"delivered"|"undeliverable"|<status>,"delayMs"?:n}, {"call":"answered"|"not_answered"|"busy"|<status>,"delayMs"?:n} or {"phoneid":{"type"?:"VOIP","risk"?:700}}.');
  if (channel === 'phoneid') {
    object(path, value, ['phoneid']);
    const p = object(`${path}.phoneid`, raw!.phoneid, ['type', 'risk']);
    if (p.type === undefined && p.risk === undefined) fail(`${path}.phoneid`, 'needs a type (such as "VOIP"), a risk (1 to 1000), or both.');
    const out: PhoneIdStep['phoneid'] = {};
    if (p.type !== undefined) out.type = oneOf(`${path}.phoneid.type`, p.type, Object.keys(PHONE_TYPES) as PhoneTypeName[]);
    if (p.risk !== undefined) out.risk = integer(`${path}.phoneid.risk`, p.risk, 1, 1000, 'a risk score');
    return { phoneid: out };
  }
  object(path, value, [channel!, 'delayMs']);
  const words = channel === 'sms' ? SMS_WORDS : CALL_WORDS;
  const statuses = channel === 'sms' ? FINAL_STATUS.sms : FINAL_STATUS.voice;
  const what = raw![channel!];
  if (typeof what === 'number') oneOf(`${path}.${channel!}`, what, statuses);
  else oneOf(`${path}.${channel!}`, what, Object.keys(words));
  const step = { [channel!]: what } as unknown as SmsStep | CallStep;
  if (raw!.delayMs !== undefined) step.delayMs = integer(`${path}.delayMs`, raw!.delayMs, 0, MAX_DELAY_MS, 'a number of milliseconds');
  return step;
}

/**
 * Checks one script; throws a ShapeError (`invalid_script`) naming the path of the first bad field (under `path`).
 *
 * @example
 * ```ts
 * import { parseNumberScript, ShapeError } from '@x/emulator';
 *
 * parseNumberScript({ number: '15555550100', steps: [{ sms: 'undeliverable' }] }); // the script, checked
 * try {
 *   parseNumberScript({ number: '15555550100', steps: [{ call: 'ringing' }] });
 * } catch (error) {
 *   if (error instanceof ShapeError) console.log(error.field); // script.steps[0].call
 * }
 * ```
 */
export function parseNumberScript(value: unknown, path = 'script'): NumberScript {
  const s = object(path, value, ['number', 'prefix', 'steps']);
  if ((s.number === undefined) === (s.prefix === undefined)) fail(path, 'needs either "number" (the digits of one number, e.g. "15555550100") or "prefix" (the first digits of many, e.g. "1555"), not both.');
  const steps = array(`${path}.steps`, s.steps, MAX_SCRIPT_STEPS).map((step, i) => checkStep(`${path}.steps[${i}]`, step));
  if (s.number !== undefined) return { number: string(`${path}.number`, s.number, DIGITS, 'the digits of a number, such as "15555550100" (no "+", no spaces)'), steps };
  return { prefix: string(`${path}.prefix`, s.prefix, DIGITS, 'the first digits of numbers, such as "1555" (no "+", no spaces)'), steps };
}

/**
 * Checks a list of scripts (`numbers` of a seed file, PUT /_emulator/numbers); a ShapeError names the path (`numbers[1].prefix`).
 *
 * @example
 * ```ts
 * import { parseNumberScripts } from '@x/emulator';
 *
 * const scripts = parseNumberScripts([{ prefix: '1555', steps: [{ call: 'busy' }] }]);
 * ```
 */
export function parseNumberScripts(value: unknown, path = 'numbers'): NumberScript[] {
  return array(path, value, MAX_SCRIPTS).map((script, i) => parseNumberScript(script, `${path}[${i}]`));
}

/** The eight test suffixes, as the default rules they are. */
export const DEFAULT_NUMBER_RULES: readonly DefaultNumberRule[] = Object.entries(TEST_NUMBERS).map(([suffix, o]) => ({
  suffix,
  meaning: o.meaning,
  sms: o.sms,
  call: o.voice,
  phoneid: { type: o.phoneType.description, ...(o.risk !== undefined ? { risk: o.risk } : {}) },
}));

const channelOf = (step: ScriptStep): ScriptChannel => ('sms' in step ? 'sms' : 'call' in step ? 'call' : 'phoneid');

/** The scripts of one emulator, in the order they were added; each step is taken once. */
export class NumberScripts {
  private scripts: NumberScript[] = [];

  constructor(private readonly onChange: () => void = () => undefined) {}

  /** Adds a script (checked first; a bad one throws a ShapeError and changes nothing). */
  add(script: NumberScript): void {
    const clean = parseNumberScript(script);
    if (this.scripts.length >= MAX_SCRIPTS) fail('script', `at most ${MAX_SCRIPTS} scripts are kept; clear some first (DELETE /_emulator/numbers).`);
    this.scripts.push(clean);
    this.onChange();
  }

  /** Replaces every script (all checked first). */
  set(scripts: NumberScript[]): void {
    this.scripts = parseNumberScripts(scripts);
    this.onChange();
  }

  /** The scripts with the steps they have left. */
  list(): NumberScript[] {
    return this.scripts.map((s) => ({ ...s, steps: s.steps.map((step) => ('phoneid' in step ? { phoneid: { ...step.phoneid } } : { ...step })) }));
  }

  get size(): number {
    return this.scripts.length;
  }

  clear(): void {
    if (this.scripts.length === 0) return;
    this.scripts = [];
    this.onChange();
  }

  /**
   * Takes the next step of a channel for a number: from the script of that exact number, else of
   * the longest prefix that has one. A script whose steps are all taken is removed.
   */
  next(phoneNumber: string, channel: ScriptChannel): ScriptStep | undefined {
    if (this.scripts.length === 0) return undefined;
    const digits = phoneNumber.replace(/\D/g, '');
    let best: { script: NumberScript; index: number; rank: number } | undefined;
    for (const script of this.scripts) {
      const rank = script.number !== undefined ? (script.number === digits ? Infinity : -1) : digits.startsWith(script.prefix) ? script.prefix.length : -1;
      if (rank < 0 || (best && best.rank >= rank)) continue;
      const index = script.steps.findIndex((step) => channelOf(step) === channel);
      if (index >= 0) best = { script, index, rank };
    }
    if (!best) return undefined;
    const [step] = best.script.steps.splice(best.index, 1);
    if (best.script.steps.length === 0) this.scripts.splice(this.scripts.indexOf(best.script), 1);
    this.onChange();
    return step;
  }
}

/** A seed file (`x-emulator --config emulator.json`): number scripts and fault rules to start with. */
export interface EmulatorConfig {
  /** The file's JSON Schema, for editors; not read. */
  $schema?: string;
  numbers?: NumberScript[];
  faults?: FaultRule[];
}

/**
 * Checks a seed file field by field; throws a ShapeError (`invalid_script`) whose `field` is the
 * path of the first bad value (`numbers[0].steps[1].sms`, `faults[2].status`).
 *
 * @example
 * ```ts
 * import { createEmulator, parseEmulatorConfig } from '@x/emulator';
 *
 * const config = parseEmulatorConfig(JSON.parse('{"numbers":[{"number":"15555550100","steps":[{"sms":"delivered","delayMs":5000}]}]}'));
 * const emulator = createEmulator({ numbers: config.numbers });
 * for (const rule of config.faults ?? []) emulator.faults.add(rule);
 * ```
 */
export function parseEmulatorConfig(input: unknown): EmulatorConfig {
  const config = object('config', input, ['$schema', 'numbers', 'faults']);
  const out: EmulatorConfig = {};
  if (config.numbers !== undefined) out.numbers = parseNumberScripts(config.numbers);
  if (config.faults !== undefined) {
    out.faults = array('faults', config.faults, 1_000).map((rule, i) => {
      try {
        return parseFaultRule(rule);
      } catch (error) {
        if (error instanceof FaultRuleError) fail(error.field === 'rule' ? `faults[${i}]` : `faults[${i}].${error.field}`, error.message);
        throw error;
      }
    });
  }
  return out;
}
