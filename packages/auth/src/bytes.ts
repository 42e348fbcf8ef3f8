// Encoders made at each use, not at import: some environments (Jest's jsdom) have no TextEncoder,
// and importing the package must not fail there.
export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
/** Lossy (U+FFFD) decode, for display and for string-typed APIs only: never used before signing. */
export const fromUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
