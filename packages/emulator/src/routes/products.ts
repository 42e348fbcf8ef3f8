import { messaging } from './messaging.js';
import { phoneid } from './phoneid.js';
import type { ProductModule } from './service.js';
import { unknownProduct } from './unknown.js';
import { verify } from './verify.js';
import { voice } from './voice.js';

/** The products, in mounting order; the catch-all for unknown /v1 paths last. Add a module here. */
export const PRODUCTS: readonly ProductModule[] = [messaging, phoneid, verify, voice, unknownProduct];
