// analyzeMessage against the GSM 03.38 tables and the concatenation limits (160/153 septets,
// 70/67 UCS-2 units), by example and by property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeMessage } from '../src/request.js';

const BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '\f^{}\\[~]|€';
/** Characters outside GSM-7: in the BMP (1 UTF-16 unit) and outside it (2 units). */
const BMP_OTHER = ['’', '“', '–', 'ç', 'ж', '中', '\t', '`', 'Ā'];
const ASTRAL = ['😀', '𝄞', '🇫'];

const basicChar = fc.constantFrom(...BASIC);
const extensionChar = fc.constantFrom(...EXTENSION);
const gsmChar = fc.oneof({ arbitrary: basicChar, weight: 4 }, { arbitrary: extensionChar, weight: 1 });
const nonGsmChar = fc.constantFrom(...BMP_OTHER, ...ASTRAL);

/** The fewest consecutive parts of at most `perPart` units that hold these characters whole (an independent oracle: dynamic programming). */
function fewestParts(units: readonly number[], perPart: number): number {
  const best = [0];
  for (let end = 1; end <= units.length; end++) {
    best[end] = Infinity;
    let sum = 0;
    for (let start = end - 1; start >= 0; start--) {
      sum += units[start]!;
      if (sum > perPart) break;
      best[end] = Math.min(best[end]!, best[start]! + 1);
    }
  }
  return best[units.length]!;
}

describe('analyzeMessage: examples', () => {
  it('a GSM-7 text', () => {
    expect(analyzeMessage('Your code is 123456')).toEqual({ encoding: 'GSM-7', units: 19, parts: 1, unitsPerPart: 160, nonGsm: [] });
  });

  it('an en dash turns the message into UCS-2 and is named with its position', () => {
    expect(analyzeMessage('Your code is 123456 – valid 10 minutes')).toEqual({ encoding: 'UCS-2', units: 38, parts: 1, unitsPerPart: 70, nonGsm: [{ character: '–', index: 20 }] });
  });

  it('an emoji is one character at its UTF-16 index and counts two units', () => {
    const a = analyzeMessage('ok 😀 ok ’');
    expect(a.nonGsm).toEqual([{ character: '😀', index: 3 }, { character: '’', index: 9 }]);
    expect(a.units).toBe(10);
  });

  it('the empty text is no part', () => {
    expect(analyzeMessage('')).toEqual({ encoding: 'GSM-7', units: 0, parts: 0, unitsPerPart: 160, nonGsm: [] });
  });

  it('160 septets are one part, 161 are two of 153', () => {
    expect(analyzeMessage('a'.repeat(160))).toMatchObject({ parts: 1, unitsPerPart: 160 });
    expect(analyzeMessage('a'.repeat(161))).toMatchObject({ parts: 2, unitsPerPart: 153 });
    expect(analyzeMessage('a'.repeat(306))).toMatchObject({ parts: 2 });
    expect(analyzeMessage('a'.repeat(307))).toMatchObject({ parts: 3 });
  });

  it('70 UCS-2 units are one part, 71 are two of 67', () => {
    expect(analyzeMessage('ж'.repeat(70))).toMatchObject({ encoding: 'UCS-2', parts: 1, unitsPerPart: 70 });
    expect(analyzeMessage('ж'.repeat(71))).toMatchObject({ encoding: 'UCS-2', parts: 2, unitsPerPart: 67 });
  });

  it('an escape sequence is never cut in two: 152 + € + 152 septets (306 = 2 x 153) take three parts', () => {
    expect(analyzeMessage(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toMatchObject({ encoding: 'GSM-7', units: 306, parts: 3 });
  });

  it('a surrogate pair is never cut in two: 66 + emoji + 66 units (134 = 2 x 67) take three parts', () => {
    expect(analyzeMessage(`${'ж'.repeat(66)}😀${'ж'.repeat(66)}`)).toMatchObject({ encoding: 'UCS-2', units: 134, parts: 3 });
  });
});

describe('analyzeMessage: properties', () => {
  it('any text of 1 to 160 basic GSM characters is one GSM-7 part; 161 to 306 are two', () => {
    fc.assert(
      fc.property(fc.array(basicChar, { minLength: 1, maxLength: 306 }), (chars) => {
        const a = analyzeMessage(chars.join(''));
        expect(a.encoding).toBe('GSM-7');
        expect(a.units).toBe(chars.length);
        expect(a.parts).toBe(chars.length <= 160 ? 1 : 2);
      }),
    );
  });

  it('a character of the extension table counts two septets', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 400 }), (chars) => {
        const a = analyzeMessage(chars.join(''));
        expect(a.units).toBe(chars.reduce((sum, c) => sum + (EXTENSION.includes(c) ? 2 : 1), 0));
        expect(a.nonGsm).toEqual([]);
      }),
    );
  });

  it('one character outside GSM-7 anywhere turns the message into UCS-2 counted in UTF-16 units, and is named where it is', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 300 }), fc.nat(), nonGsmChar, (chars, at, odd) => {
        const position = at % (chars.length + 1);
        const text = [...chars.slice(0, position), odd, ...chars.slice(position)].join('');
        const a = analyzeMessage(text);
        expect(a.encoding).toBe('UCS-2');
        expect(a.units).toBe(text.length);
        expect(a.nonGsm).toHaveLength(1);
        const [found] = a.nonGsm;
        expect(found!.character).toBe(odd);
        expect(text.slice(found!.index, found!.index + odd.length)).toBe(odd);
        expect(a.unitsPerPart).toBe(text.length <= 70 ? 70 : 67);
      }),
    );
  });

  it('GSM-7 parts are the fewest that hold every escape sequence whole', () => {
    fc.assert(
      fc.property(fc.array(gsmChar, { maxLength: 700 }), (chars) => {
        const units = chars.map((c) => (EXTENSION.includes(c) ? 2 : 1));
        const total = units.reduce((a, b) => a + b, 0);
        const expected = total === 0 ? 0 : total <= 160 ? 1 : fewestParts(units, 153);
        expect(analyzeMessage(chars.join('')).parts).toBe(expected);
      }),
    );
  });

  it('UCS-2 parts are the fewest that hold every surrogate pair whole', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(gsmChar, nonGsmChar), { maxLength: 300 }).filter((chars) => chars.some((c) => !BASIC.includes(c) && !EXTENSION.includes(c))), (chars) => {
        const units = chars.map((c) => c.length);
        const total = units.reduce((a, b) => a + b, 0);
        expect(analyzeMessage(chars.join('')).parts).toBe(total <= 70 ? 1 : fewestParts(units, 67));
      }),
    );
  });
});
