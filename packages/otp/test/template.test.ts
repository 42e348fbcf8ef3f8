// Templates: every shipped locale stays GSM-7 in one part, the WebOTP line is last, and a
// template that would turn UCS-2 or take two parts is refused with the reason.
import { XError } from '@x/auth';
import { describe, expect, it } from 'vitest';
import { otpTemplate, OTP_TEXTS } from '../src/index.js';
import { gsm7Septets } from '../src/gsm7.js';

describe('otpTemplate', () => {
  it.each(Object.keys(OTP_TEXTS))('%s: GSM-7, one part with the longest brand, the hash and the WebOTP line', (language) => {
    const template = otpTemplate({ locale: `${language}-XX`, brand: 'B'.repeat(40), webOtpDomain: 'login.example.com', androidAppHash: 'FA+9qCX9VSu' });
    expect(gsm7Septets(template)).toBeLessThanOrEqual(160);
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

  it('counts extension characters as two septets', () => {
    expect(gsm7Septets('a€[')).toBe(5);
    expect(gsm7Septets('ó')).toBeUndefined();
  });
});
