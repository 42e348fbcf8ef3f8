// Facts (data only: hosts, limits, value lists) of the service's newer operations that the
// reference marks uncertain or contradictory, each decided once, here; a decision about how a
// request is made is code and a comment at its operation, in products/. "service.md §N" is
// docs/service.md, the service's facts in this repository.

import { INTELLIGENCE_HOST, VERIFY_API_HOST } from '@x/service/hosts';

/** Default hosts of the products that live outside the REST host (service.md §7.2, §8, §1), as `@x/service/hosts` declares them. */
export const PRODUCT_HOSTS = {
  intelligence: INTELLIGENCE_HOST,
  verifyApi: VERIFY_API_HOST,
} as const;

/**
 * The service's own domain. A `baseUrl` on it (rest-api, rest-ww, rest) sends the other products
 * to their own default hosts; any other `baseUrl` (emulator, proxy) carries every product, so
 * credentials never go to a host the caller did not name.
 */
export { SERVICE_DOMAIN } from '@x/service/hosts';

/**
 * Voice Verify (service.md §6.2, service.md §18, #2).
 * - Own code: 3 to 7 digits, as the current guide (D-VVOWN, "000-9999999") and SMS Verify; the 2019
 *   OpenAPI copy said 100-99999.
 * - Custom text goes in `tts_message` (OpenAPI, current guide, two official SDKs); `template`
 *   appears in one guide example only and is never sent.
 * - Text limit: not documented for `tts_message`; 1 600 characters as the voice message (service.md §6.1).
 */
export const VOICE_VERIFY = {
  codePattern: /^\d{3,7}$/,
  codeRule: '3 to 7 digits',
  textField: 'tts_message',
  textMaxLength: 1600,
  promptMaxLength: 2000,
} as const;

/**
 * Verify API (service.md §8, service.md §18). (Finalize goes with Basic: see verify-api.ts.)
 * - `fallback_time`: whole seconds from 30 (the policy page says "> 30", but its own example and
 *   two official SDKs send 30) to 300 (the newer policy page caps the whole attempt at 300 s).
 * - At most 3 methods; silent / push first and not both (policy page).
 * - Payload at most 10 KB (error 3116, HTTP 413): checked before sending.
 */
export const VERIFY_API = {
  fallbackMinSeconds: 30,
  fallbackMaxSeconds: 300,
  maxMethods: 3,
  maxPayloadBytes: 10 * 1024,
  securityFactorPattern: /^\d{3,10}$/,
} as const;

/**
 * Bulk SMS (service.md §9, service.md §18): recipients joined with commas (the reference and
 * the guide's example; the guide's text says colons), each `number` or `number:id`; at most 1000.
 * Its error codes are not documented, so even a 429 is not taken as proof that nothing was sent:
 * a bulk request is never re-sent by the client.
 */
export const BULK_SMS = { separator: ',', idSeparator: ':', maxRecipients: 1000, templateMaxLength: 1600 } as const;

