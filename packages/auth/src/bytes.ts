// Made at the first use, not at import: some environments (Jest's jsdom) have no TextEncoder, and
// importing the package must not fail there.
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;

export const utf8 = (text: string): Uint8Array => (encoder ??= new TextEncoder()).encode(text);
/** Lossy (U+FFFD) decode, for display and for string-typed APIs only: never used before signing. */
export const fromUtf8 = (bytes: Uint8Array): string => (decoder ??= new TextDecoder()).decode(bytes);

// Text up to this many UTF-16 code units is encoded into one reused buffer (at most 3 bytes per
// unit: 48 KB, allocated at the first use); longer text gets a buffer of its own.
const SCRATCH_UNITS = 16_384;
let scratch: Uint8Array | undefined;

/**
 * The UTF-8 of `text` in a buffer that the next call overwrites: for a consumer that reads it at
 * once (the HMAC), so that hashing text allocates nothing.
 */
export function utf8Scratch(text: string): Uint8Array {
  if (text.length > SCRATCH_UNITS) return utf8(text);
  scratch ??= new Uint8Array(SCRATCH_UNITS * 3);
  return scratch.subarray(0, (encoder ??= new TextEncoder()).encodeInto(text, scratch).written);
}
