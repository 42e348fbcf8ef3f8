// Templates: every shipped locale stays GSM-7 in one part, the WebOTP line is last, and a
// template that would turn UCS-2 or take two parts is refused with the reason.
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { otpTemplate, OTP_TEXTS } from '../src/index.js';
import { analyzeMessage } from '@x/client';

describe('otpTemplate', () => {
  it.each(Object.keys(OTP_TEXTS))('%s: GSM-7, one part with the longest brand, the hash and the WebOTP line', (language) => {
    const template = otpTemplate({ locale: `${language}-XX`, brand: 'B'.repeat(40), webOtpDomain: 'login.example.com', androidAppHash: 'FA+9qCX9VSu' });
    expect(analyzeMessage(template)).toMatchObject({ encoding: 'GSM-7', parts: 1 });
    const lines = template.split('\n');
    expect(lines.at(-1)).toBe('@login.example.com #$$CODE$$');
    expect(lines.at(-2)).toBe('FA+9qCX9VSu');
    expect(lines[0]).toContain('$$CODE$$');
  });

  it('falls back to the language, then English; takes your own text', () => {
    expect(otpTemplate({ locale: 'fr-CA', brand: 'Acme' })).toBe('Votre code Acme est $$CODE$$. Ne le partagez pas.');
    expect(otpTemplate({ locale: 'sw-KE', brand: 'Acme' })).toBe('Your Acme code is $$CODE$$. Do not share it.');
    expect(otpTemplate({ brand: 'Acme', text: 'Nambari yako ya {brand} ni $$CODE$$' })).toBe('Nambari yako ya Acme ni $$CODE$$');
  });

  it('refuses a character that would turn the message UCS-2, naming it, unless allowed', () => {
    expect(() => otpTemplate({ brand: 'Acmé', text: 'Tu código es $$CODE$$' })).toThrow(/"ó" is not a GSM-7 character/);
    expect(() => otpTemplate({ brand: 'Ácme' })).toThrow(XError);
    expect(otpTemplate({ brand: 'Acme', text: 'Ваш код $$CODE$$', allowUcs2: true })).toBe('Ваш код $$CODE$$');
  });

  it('refuses more than one part, a text without $$CODE$$, a bad domain or hash', () => {
    expect(() => otpTemplate({ brand: 'Acme', text: `${'x'.repeat(155)} $$CODE$$` })).toThrow(/more than one SMS part/);
    expect(() => otpTemplate({ brand: 'Acme', text: 'no code here' })).toThrow(/\$\$CODE\$\$/);
    expect(() => otpTemplate({ brand: 'Acme', webOtpDomain: 'https://acme.example/' })).toThrow(/host name/);
    expect(() => otpTemplate({ brand: 'Acme', androidAppHash: 'short' })).toThrow(/11-character/);
    expect(() => otpTemplate({ brand: '' })).toThrow(/brand/);
  });

  it('counts with the SDK\'s message analysis: extension characters take two septets', () => {
    expect(() => otpTemplate({ brand: 'Acme', text: `${'€'.repeat(75)} $$CODE$$` })).not.toThrow(); // 159 septets
    expect(() => otpTemplate({ brand: 'Acme', text: `${'€'.repeat(76)} $$CODE$$` })).toThrow(/takes 161 GSM-7 units, more than one SMS part \(160\)/);
  });

  it('keeps a UCS-2 template, when allowed, to one part (70 units)', () => {
    expect(otpTemplate({ brand: 'Acme', text: `Ваш код $$CODE$$ ${'ж'.repeat(44)}`, allowUcs2: true })).toHaveLength(61);
    expect(() => otpTemplate({ brand: 'Acme', text: `Ваш код $$CODE$$ ${'ж'.repeat(54)}`, allowUcs2: true })).toThrow(/takes 71 UCS-2 units, more than one SMS part \(70\)/);
  });
});
