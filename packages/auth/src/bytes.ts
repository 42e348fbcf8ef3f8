const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8 = (text: string): Uint8Array => encoder.encode(text);
/** Lossy (U+FFFD) decode, for display and for string-typed APIs only: never used before signing. */
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);
