// Made at the first use, not at import: some environments (Jest's jsdom) have no TextEncoder, and
// importing the package must not fail there.
let encoder: TextEncoder | undefined;
let decoder: TextDecoder | undefined;

export const utf8 = (text: string): Uint8Array => (encoder ??= new TextEncoder()).encode(text);
/** Lossy (U+FFFD) decode, for display and for string-typed APIs only: never used before signing. */
export const fromUtf8 = (bytes: Uint8Array): string => (decoder ??= new TextDecoder()).decode(bytes);
