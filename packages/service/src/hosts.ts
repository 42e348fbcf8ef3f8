/**
 * The service's hosts (service.md §1), declared once: the client's defaults and the emulator's
 * msw handlers read them. An entry of its own, so that the packages re-exporting the vocabulary
 * with `export *` do not carry them.
 *
 * @packageDocumentation
 * @module @x/service/hosts
 */

/** The service's own domain: every host below is on it. */
export const SERVICE_DOMAIN = 'telesign.com';

/** The self-service REST host: the client's default `baseUrl`. */
export const REST_HOST = 'https://rest-api.telesign.com';

/** The Intelligence host (its own customer id and key). */
export const INTELLIGENCE_HOST = 'https://detect.telesign.com';

/** The Verify API host. */
export const VERIFY_API_HOST = 'https://verify.telesign.com';

/**
 * Every host of the service: the self-service REST host, the full-service one and the older one
 * (service.md §1), the Intelligence host and the Verify API host.
 */
export const SERVICE_HOSTS = {
  rest: REST_HOST,
  restWorldwide: 'https://rest-ww.telesign.com',
  restLegacy: 'https://rest.telesign.com',
  intelligence: INTELLIGENCE_HOST,
  verifyApi: VERIFY_API_HOST,
} as const;
