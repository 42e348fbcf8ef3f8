// PhoneID fidelity, found by running the official clients: 301 carries its description, every
// calling code has a country, and numbering.cleansing really cleanses.
import { signRequest } from '@x/auth';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { customer } from './helpers.js';

const emulator = createEmulator();

async function phoneId(phone: string, json: unknown = {}) {
  const url = `http://emulator.test/v1/phoneid/${phone}`;
  const body = JSON.stringify(json);
  const { headers } = signRequest({ method: 'POST', url, contentType: 'application/json', body }, customer);
  const response = await emulator.fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: await response.json() };
}

describe('PhoneID status 301', () => {
  it('"Transaction partially completed" when no calling code matches (never the placeholder "Status")', async () => {
    const r = await phoneId('99912345678');
    expect(r.status).toBe(200);
    expect(r.body.status).toMatchObject({ code: 301, description: 'Transaction partially completed' });
    expect(r.body.numbering.cleansing.call.cleansed_code).toBe(103);
  });
});

describe('the country table covers every calling code', () => {
  it('each region of the numbering plans gets its calling code, ISO codes and name', async () => {
    const seen = new Set<string>();
    for (const region of getCountries()) {
      const code = getCountryCallingCode(region);
      if (seen.has(code)) continue;
      seen.add(code);
      // A number of the right shape for the code: the code then enough digits (the country of a shared code may be any of its regions).
      const r = await phoneId(`${code}${'2'.repeat(Math.max(1, 11 - code.length))}`);
      expect(r.body.numbering.original.country_code, `+${code}`).toBe(code);
      expect(r.body.location.country.iso2, `+${code}`).toMatch(/^[A-Z]{2}$/);
      expect(r.body.location.country.iso3, `+${code}`).toMatch(/^[A-Z]{3}$/);
      expect(r.body.location.country.name, `+${code}`).toEqual(expect.any(String));
    }
    expect(seen.size).toBeGreaterThan(200);
  });

  it('a number of a shared calling code gets its own region: +1 416 is Canada, +1 212 the United States, +7 701 Kazakhstan', async () => {
    expect((await phoneId('14165550100')).body.location.country).toEqual({ name: 'Canada', iso2: 'CA', iso3: 'CAN' });
    expect((await phoneId('12125550100')).body.location.country).toEqual({ name: 'United States', iso2: 'US', iso3: 'USA' });
    expect((await phoneId('77011234567')).body.location.country.iso2).toBe('KZ');
    expect((await phoneId('33612345678')).body.location.country).toEqual({ name: 'France', iso2: 'FR', iso3: 'FRA' });
  });
});

describe('numbering.cleansing cleanses', () => {
  it('a valid number: 100, unchanged, with the plan\'s lengths', async () => {
    const r = await phoneId('15555550100');
    expect(r.body.numbering.cleansing.call).toEqual({ country_code: '1', phone_number: '5555550100', cleansed_code: 100, min_length: 10, max_length: 10 });
    expect(r.body.status.code).toBe(300);
  });

  it('one digit too many: 105 (length too long), not "100 no change"', async () => {
    const r = await phoneId('155555501000');
    expect(r.body.numbering.cleansing.call).toMatchObject({ country_code: '1', phone_number: '55555501000', cleansed_code: 105, min_length: 10, max_length: 10 });
    expect(r.body.numbering.cleansing.sms.cleansed_code).toBe(105);
  });

  it('one digit too few: 105', async () => {
    expect((await phoneId('1555555010')).body.numbering.cleansing.call.cleansed_code).toBe(105);
  });

  it('the trunk prefix written after the calling code (44 0 7911 ..., 49 0 30 ...): 101, removed', async () => {
    const uk = await phoneId('4407911123456');
    expect(uk.body.numbering.cleansing.call).toMatchObject({ country_code: '44', phone_number: '7911123456', cleansed_code: 101 });
    expect(uk.body.numbering.original.phone_number).toBe('07911123456');
    const de = await phoneId('4903012345678');
    expect(de.body.numbering.cleansing.call).toMatchObject({ country_code: '49', phone_number: '3012345678', cleansed_code: 101 });
  });
});
