import type { ProductModule } from './service.js';

/**
 * Everything else under /v1 (products the emulator does not know): authenticated like every
 * service route, then a 404 in the positive family. Mounted after the products.
 */
export const unknownProduct: ProductModule = {
  path: '/v1',
  family: 'positive',
  routes() {},
};
