// The flow's secret: codes derived from it (never stored), and key names hashed with it. A keyed
// MAC (HMAC-SHA-256, WebCrypto) whose key lives in the application, never in the store.
import { XError } from '@x/auth';
import { encodeBase64 } from '@x/auth/protocol';

/** HMAC-SHA-256 under one secret; the key is imported once, on first use. */
export type Mac = (message: string) => Promise<Uint8Array>;

/** A MAC under `secret` (at least 32 characters or bytes), or under 32 random bytes when none is given. */
export function macOf(secret: string | Uint8Array | undefined, where: string): Mac {
  const encoder = new TextEncoder();
  let raw: Uint8Array;
  if (secret === undefined) raw = crypto.getRandomValues(new Uint8Array(32));
  else if (typeof secret === 'string' && secret.length >= 32) raw = encoder.encode(secret);
  else if (secret instanceof Uint8Array && secret.length >= 32) raw = secret.slice();
  else throw new XError('invalid_options', `${where} must be a string of at least 32 characters (or 32 bytes) from a secret store, e.g. the output of \`openssl rand -base64 32\`.`);
  let key: Promise<CryptoKey> | undefined;
  return async (message) => {
    key ??= crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(message)));
  };
}

/**
 * The code of a flow: `length` digits from the MAC of its id (48 bits reduced modulo 10^length,
 * so each code is equally likely to within 4e-8). The same for every send of the flow, and
 * computable only with the secret.
 */
export async function codeOf(mac: Mac, id: string, length: number): Promise<string> {
  const bytes = await mac(`code\u0000${id}`);
  let value = 0;
  for (let i = 0; i < 6; i++) value = value * 256 + bytes[i]!;
  return String(value % 10 ** length).padStart(length, '0');
}

/** A key name's part for `value`: 16 bytes of its MAC, base64url. */
export async function hashedName(mac: Mac, value: string): Promise<string> {
  return encodeBase64((await mac(`key\u0000${value}`)).subarray(0, 16)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
