// The key-cache tests of the adapters (Express, Fastify, Hono): a MAC provider that records every
// key it prepares, and customers with distinct keys. No workspace dependencies: the provider to
// wrap comes from the test (@x/auth's prepareMac).

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
