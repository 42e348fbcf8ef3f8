// The key-cache tests of the adapters (Express, Fastify, Hono): a MAC provider that records every
// key it prepares, and customers with distinct keys. No workspace dependencies: the provider to
// wrap comes from the test (@x/auth's prepareMac), and so does the signer.
import { expect } from 'vitest';

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** Wraps a MAC provider so that each key it prepares is recorded (base64) in `prepared`. */
export function countingMac<Algorithm, Prepared>(inner: (algorithm: Algorithm, key: Uint8Array) => Prepared) {
  const prepared: string[] = [];
  const mac = (algorithm: Algorithm, key: Uint8Array): Prepared => {
    prepared.push(base64(key));
    return inner(algorithm, key);
  };
  return { mac, prepared };
}

/** The API key of customer `n`: 32 bytes of `n`, base64. */
export const keyOf = (n: number) => base64(new Uint8Array(32).fill(n));

/** Customer `n` (`customer-<n>`) with its own key. */
export const customer = (n: number) => ({ customerId: `customer-${n}`, apiKey: keyOf(n) });

type Sign = (request: { method: string; url: string; contentType: string; body: string }, credentials: { customerId: string; apiKey: string }) => { headers: Record<string, string> };

/**
 * The signed-request half of every adapter's key-cache test: `url` is a route that verifies signed
 * requests with the adapter's own key cache (its mac recording into `prepared`) and answers
 * `answer(n)` to customer n's JSON body `{ n }`. Each customer's key is prepared once, and at most
 * 64 are held: the 65th customer since pushes the first one out. `check(n)` adds an adapter's own
 * assertion after each answer.
 */
export async function expectKeyPreparedOncePerCustomer(url: string, sign: Sign, prepared: string[], answer: (n: number) => unknown, check?: (n: number) => void) {
  prepared.length = 0;
  const send = async (n: number) => {
    const body = JSON.stringify({ n });
    const r = await fetch(url, { method: 'POST', body, headers: sign({ method: 'POST', url, contentType: 'application/json', body }, customer(n)).headers });
    expect(await r.json()).toEqual(answer(n));
    check?.(n);
  };
  for (let i = 0; i < 3; i++) await send(1);
  expect(prepared).toEqual([keyOf(1)]);
  for (let n = 2; n <= 70; n++) await send(n);
  await send(1); // evicted by the 64 keys used since: prepared again
  expect(prepared.length).toBe(71);
  await send(70); // still held
  expect(prepared.length).toBe(71);
}
