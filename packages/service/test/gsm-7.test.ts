// The GSM 7-bit default alphabet and its extension table as 3GPP TS 23.038 (GSM 03.38) §6.2.1
// lays them out, code by code, and gsmSeptets checked against them for every UTF-16 code unit
// and for characters outside the BMP.
import { describe, expect, it } from 'vitest';
import { gsmSeptets } from '../src/gsm-7.js';

// Rows of 16 codes: 0x00-0x0F, 0x10-0x1F, ... 0x70-0x7F. null at 0x1B: the escape, not a character.
const BASIC: readonly (string | null)[] = [
  '@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å',
  'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', null, 'Æ', 'æ', 'ß', 'É',
  ' ', '!', '"', '#', '¤', '%', '&', "'", '(', ')', '*', '+', ',', '-', '.', '/',
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?',
  '¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O',
  'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§',
  '¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
  'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à',
];

// The extension table: code after the escape -> character (0x0D and 0x1B are controls, not characters).
const EXTENSION: Readonly<Record<number, string>> = {
  0x0a: '\f',
  0x14: '^',
  0x28: '{',
  0x29: '}',
  0x2f: '\\',
  0x3c: '[',
  0x3d: '~',
  0x3e: ']',
  0x40: '|',
  0x65: '€',
};

describe('the GSM 03.38 tables', () => {
  it('the written tables have 128 codes, 127 characters, and 10 extension characters, none in both', () => {
    expect(BASIC).toHaveLength(128);
    const basic = BASIC.filter((c): c is string => c !== null);
    expect(new Set(basic).size).toBe(127);
    expect(Object.values(EXTENSION)).toHaveLength(10);
    for (const c of Object.values(EXTENSION)) expect(basic).not.toContain(c);
  });

  it('every character of the basic table takes one septet, of the extension table two', () => {
    for (const c of BASIC) if (c !== null) expect(gsmSeptets(c), JSON.stringify(c)).toBe(1);
    for (const c of Object.values(EXTENSION)) expect(gsmSeptets(c), JSON.stringify(c)).toBe(2);
  });

  it('every other UTF-16 code unit takes none (GSM-7 cannot carry it), the escape itself included', () => {
    const known = new Set<string>([...BASIC.filter((c): c is string => c !== null), ...Object.values(EXTENSION)]);
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if (!known.has(c) && gsmSeptets(c) !== 0) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
    expect(gsmSeptets('\u001b')).toBe(0);
  });

  it('characters outside the BMP take none', () => {
    for (const c of ['😀', '𝄞', '\u{10ffff}', '\u{1f1eb}\u{1f1f7}'.slice(0, 2)]) expect(gsmSeptets(c)).toBe(0);
  });

  it('look-alikes of GSM characters are not GSM: the curly quotes, the en dash, lower-case ç, the Latin capital A with ring', () => {
    for (const c of ['‘', '’', '“', '”', '–', 'ç', '`', '\u212b', '\t', '\u00a0']) expect(gsmSeptets(c), JSON.stringify(c)).toBe(0);
  });
});
