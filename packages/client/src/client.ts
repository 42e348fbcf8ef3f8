import { Transport, type RawRequest } from './transport/index.js';
import { configuration, count } from './transport/request.js';
import { intelligence, type IntelligenceOperations } from './products/intelligence.js';
import { messaging, type MessagingOperations } from './products/messaging.js';
import { phoneId, type PhoneIdOperations } from './products/phone-id.js';
import { score, type ScoreOperations } from './products/score.js';
import { verify, type VerifyOperations } from './products/verify.js';
import { verifyApi, type VerifyApiOperations } from './products/verify-api.js';
import { voice, type VoiceOperations } from './products/voice.js';
import { configure } from './env.js';
import { createRouter, type CreateClientOptions } from './routing.js';
import type { ApiResponse } from './types.js';

export interface Client {
  messaging: MessagingOperations;
  phoneId: PhoneIdOperations;
  verify: VerifyOperations;
  voice: VoiceOperations;
  /** Legacy risk score on the REST host. */
  score: ScoreOperations;
  /** Intelligence Cloud, on its own host (`products.intelligence`). */
  intelligence: IntelligenceOperations;
  /** Multi-channel Verify API, on its own host (`products.verifyApi`). */
  verifyApi: VerifyApiOperations;
  /** Any other operation, signed the same way (REST host). */
  request<T = unknown>(request: RawRequest): Promise<ApiResponse<T>>;
}

/**
 * A client for every operation of the service. Validates before sending, signs every attempt,
 * times out, retries safely, and answers with typed data plus the HTTP status and headers.
 * Without `customerId` and `apiKey` it reads `X_CUSTOMER_ID` and `X_API_KEY` (also `X_BASE_URL`,
 * `X_LOG_LEVEL`) from the environment in Node, Bun and Deno; explicit options always win. In a
 * browser it refuses unless `dangerouslyAllowBrowser: true`.
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 *
 * const client = createClient({ customerId, apiKey }); // or createClient() with X_CUSTOMER_ID and X_API_KEY set
 * const { data } = await client.messaging.send({ phoneNumber: '15555551234', message: 'Your order has shipped', messageType: 'ARN' });
 * log(data.reference_id, data.status.code);
 * ```
 */
export function createClient(given?: CreateClientOptions): Client {
  const options = configure(given);
  const maxParts = count(options.maxParts, 'maxParts', 1, 0, configuration); // 0: no limit
  const transport = new Transport(options);
  const routed = createRouter(options, transport);
  return {
    messaging: messaging(routed, maxParts),
    phoneId: phoneId(routed),
    verify: verify(routed),
    voice: voice(routed),
    score: score(routed),
    intelligence: intelligence(routed),
    verifyApi: verifyApi(routed),
    request: async (request) => transport.send(request),
  };
}
