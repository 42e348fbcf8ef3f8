// The service's hosts (service.md §1), one place: the client's defaults and the emulator's msw
// bridge read them from here.

/** The service's own domain: every host below is on it. */
export const SERVICE_DOMAIN = 'telesign.com';

/**
 * The service's hosts (service.md §1): the self-service REST host (the client's default
 * `baseUrl`), the full-service one and the older one, the Intelligence host and the Verify API host.
 */
export const SERVICE_HOSTS = {
  rest: 'https://rest-api.telesign.com',
  restWorldwide: 'https://rest-ww.telesign.com',
  restLegacy: 'https://rest.telesign.com',
  intelligence: 'https://detect.telesign.com',
  verifyApi: 'https://verify.telesign.com',
} as const;
