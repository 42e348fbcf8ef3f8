// What an SMS text costs before it is sent: GSM-7 or UCS-2, units, parts.
import { gsmSeptets } from './gsm-7.js';

/** The two encodings of an SMS: the GSM 7-bit default alphabet, or UCS-2 (UTF-16 code units). */
export const MESSAGE_ENCODINGS = ['GSM-7', 'UCS-2'] as const;
/** One of {@link MESSAGE_ENCODINGS}. */
export type MessageEncoding = (typeof MESSAGE_ENCODINGS)[number];

/** A character GSM-7 cannot carry, and where it is. */
export interface NonGsmCharacter {
  /** The whole character (both halves of a surrogate pair, e.g. an emoji). */
  readonly character: string;
  /** Its index in the text in UTF-16 code units (what `text.slice` and `text.indexOf` use). */
  readonly index: number;
}

/** What {@link analyzeMessage} finds. */
export interface MessageAnalysis {
  /** GSM-7 when every character is in the GSM 03.38 tables; otherwise UCS-2. */
  readonly encoding: MessageEncoding;
  /**
   * GSM-7: septets (a character of the extension table, such as `€` or `{`, counts two).
   * UCS-2: UTF-16 code units (an emoji or another character outside the BMP counts two).
   */
  readonly units: number;
  /** How many SMS parts the message is sent in (0 for an empty text). */
  readonly parts: number;
  /** Units each part holds: 160 (GSM-7) or 70 (UCS-2) in one part; 153 or 67 once split (each part carries a header). */
  readonly unitsPerPart: number;
  /** The characters that forced UCS-2, in order; empty for a GSM-7 message. */
  readonly nonGsm: readonly NonGsmCharacter[];
}

/**
 * Adds a character of `units` units to a count `[units, parts when split, units in the last
 * part]`. Parts are filled one after the other; a character that does not fit goes whole to the
 * next part, so an escape sequence or a surrogate pair is never cut in two.
 */
function add(count: number[], units: number, perPart: number): void {
  if (count[2]! + units > perPart) {
    count[1]!++;
    count[2] = 0;
  }
  count[0]! += units;
  count[2]! += units;
}

/**
 * How an SMS text is encoded and into how many parts it is split, before it is sent. One character
 * outside the GSM 03.38 tables (a curly quote, an emoji) turns the whole message into UCS-2: 70
 * units per part instead of 160, 67 instead of 153 once split. `nonGsm` says which characters did
 * it and where.
 *
 * @example
 * ```ts
 * import { analyzeMessage } from '@x/client';
 *
 * const analysis = analyzeMessage('Your code is 123456 – valid 10 minutes');
 * // { encoding: 'UCS-2', units: 38, parts: 1, unitsPerPart: 70, nonGsm: [{ character: '–', index: 20 }] }
 * if (analysis.encoding === 'UCS-2') log(analysis.nonGsm.map((c) => c.character).join(' '));
 * ```
 */
export function analyzeMessage(text: string): MessageAnalysis {
  const nonGsm: NonGsmCharacter[] = [];
  // Both encodings are counted in one pass; the text's characters decide which one applies.
  const gsm = [0, 1, 0];
  const ucs = [0, 1, 0];
  for (const character of text) {
    const septets = gsmSeptets(character);
    if (!septets) nonGsm.push({ character, index: ucs[0]! });
    add(gsm, septets, 153);
    add(ucs, character.length, 67);
  }
  const [units, parts] = nonGsm.length ? ucs : gsm;
  const [single, split] = nonGsm.length ? [70, 67] : [160, 153];
  return {
    encoding: nonGsm.length ? 'UCS-2' : 'GSM-7',
    units: units!,
    parts: units! > single! ? parts! : units ? 1 : 0,
    unitsPerPart: units! > single! ? split! : single!,
    nonGsm,
  };
}
