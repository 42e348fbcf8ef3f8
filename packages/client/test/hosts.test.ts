// The client's default hosts are the service's hosts as @x/service/hosts declares them (the
// emulator's msw handlers route those).
import { INTELLIGENCE_HOST, REST_HOST, SERVICE_DOMAIN, SERVICE_HOSTS, VERIFY_API_HOST } from '@x/service/hosts';
import { expect, it } from 'vitest';
import { DEFAULT_BASE_URL } from '../src/index.js';
import { PRODUCT_HOSTS, SERVICE_DOMAIN as CLIENT_DOMAIN } from '../src/facts.js';

it('uses the hosts @x/service/hosts declares', () => {
  expect(DEFAULT_BASE_URL).toBe(REST_HOST);
  expect(PRODUCT_HOSTS).toEqual({ intelligence: INTELLIGENCE_HOST, verifyApi: VERIFY_API_HOST });
  expect(CLIENT_DOMAIN).toBe(SERVICE_DOMAIN);
  for (const host of Object.values(SERVICE_HOSTS)) expect(new URL(host).hostname.endsWith(`.${SERVICE_DOMAIN}`)).toBe(true);
});
