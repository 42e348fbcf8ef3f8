// What is never shown, in a log line or an error: verification codes (sent in forms, JSON and
// queries, echoed in answers) and the credentials of a URL. One masking function for both.

/** Form fields and JSON members whose values are never shown: the codes sent, and the code an answer echoes. */
const SECRET_FIELDS = ['verify_code', 'security_factor', 'code_entered'];
// A value ends at "&" or white space (a form or query value has none; a message goes on after it).
const SECRET_PAIR = new RegExp(`((?:^|[?&\\s])(?:${SECRET_FIELDS.join('|')})=)[^&\\s]*`, 'g');
const SECRET_JSON = new RegExp(`("(?:${SECRET_FIELDS.join('|')})"\\s*:\\s*)("(?:[^"\\\\]|\\\\.)*"|[-\\d.eE+]+)`, 'g');
// `scheme://user:password@`: up to the last "@" before the path, so that an unescaped "@" in a password is masked too.
const URL_CREDENTIALS = /\b([a-z][a-z\d+.-]*:\/\/)[^/?#\s]*@/gi;

/**
 * `text` with verification codes masked (in a query, a form body, JSON, or a string to sign made of
 * them) and URL credentials masked (`https://[redacted]@host`). The rest is kept as it is, so that
 * two masked strings to sign still compare line by line.
 */
export const maskSecrets = (text: string): string =>
  text.replace(SECRET_PAIR, '$1[redacted]').replace(SECRET_JSON, '$1"[redacted]"').replace(URL_CREDENTIALS, '$1[redacted]@');

/** Deeper than this, an answer's value is not shown at all (the service's answers are a few levels deep). */
const MAX_DEPTH = 32;

/**
 * A parsed answer with its secrets masked: every string through `maskSecrets` (a string may hold
 * escaped JSON or a form), every member named as a secret field replaced. Returns a copy.
 */
export function maskSecretsIn(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '[not shown: nested too deep]';
  if (Array.isArray(value)) return value.map((item) => maskSecretsIn(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) copy[key] = SECRET_FIELDS.includes(key) ? '[redacted]' : maskSecretsIn(member, depth + 1);
  return copy;
}

/** The text of an error link that could hold a secret: its message and stack. */
const textOf = (error: Error) => `${error.message}\n${error.stack ?? ''}`;

/**
 * A lower error (a NetworkError's cause) with its secrets masked: the same error when none of its
 * links (at most 4) holds one, which is the rule; else a copy of each link with the same class,
 * name, message, stack and own properties (code, address, port, ...), strings masked.
 */
export function maskedCause(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth >= 4) return typeof error === 'string' ? maskSecrets(error) : error;
  const cause = maskedCause((error as { cause?: unknown }).cause, depth + 1);
  const text = textOf(error);
  if (maskSecrets(text) === text && cause === (error as { cause?: unknown }).cause) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Object.getOwnPropertyNames(error)) {
    const value: unknown = (error as unknown as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, { value: key === 'cause' ? cause : typeof value === 'string' ? maskSecrets(value) : value, writable: true, configurable: true, enumerable: Object.prototype.propertyIsEnumerable.call(error, key) });
  }
  return copy;
}
