import { messaging } from './messaging.js';
import { phoneid } from './phoneid.js';
import { phoneidDeactivation, phoneidLive, phoneidStandard } from './phoneid-variants.js';
import { intelligence, score } from './score.js';
import type { ProductModule } from './service.js';
import { unknownProduct } from './unknown.js';
import { verify } from './verify.js';
import { verifyApi } from './verify-api.js';
import { voice } from './voice.js';

/**
 * The products, in mounting order: a path prefix before the shorter one it extends (the PhoneID
 * variants before /v1/phoneid), the catch-all for unknown /v1 paths last. Add a module here.
 */
export const PRODUCTS: readonly ProductModule[] = [
  messaging,
  phoneidStandard,
  phoneidLive,
  phoneidDeactivation,
  phoneid,
  verify,
  voice,
  score,
  unknownProduct,
  intelligence,
  verifyApi,
];
