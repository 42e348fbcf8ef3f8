import { encodeBase64 } from '@x/auth/protocol';
import type { Customer } from '../types.js';

/** The account every emulator accepts unless told otherwise. Not a secret: never use it elsewhere. */
export const DEFAULT_CUSTOMER: Customer = {
  customerId: '00000000-0000-4000-8000-000000000001',
  // ASCII as bytes without TextEncoder: nothing of the emulator touches TextEncoder, Request or Response at import (Jest's jsdom has none).
  apiKey: encodeBase64(Uint8Array.from('x-emulator-default-key-not-a-secret', (c) => c.charCodeAt(0))),
};
