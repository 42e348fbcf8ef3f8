// What is never shown, in a log line or an error: verification codes (sent in forms, JSON and
// queries, echoed in answers), the credentials of a URL, and the Authorization header.

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

/**
 * A lower error (a NetworkError's cause) with its secrets masked: the same error when none of its
 * links (at most 4) holds one, which is the rule; else a copy of each link with the same class and
 * own enumerable properties (code, address, port, ...), message and stack masked.
 */
export function maskedCause(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 3) return error;
  const { message, stack, cause } = error as Error & { cause?: unknown };
  const masked = maskedCause(cause, depth + 1);
  if (masked === cause && maskSecrets(`${message}${stack}`) === `${message}${stack}`) return error;
  return Object.assign(Object.create(Object.getPrototypeOf(error) as object) as Error, error, { message: maskSecrets(message), stack: stack && maskSecrets(stack), cause: masked });
}

/** The headers with the Authorization value redacted, for hooks and log lines. */
export const redact = (headers: Record<string, string>): Record<string, string> =>
  headers.authorization ? { ...headers, authorization: headers.authorization.replace(/^(TSA [^:]+:|Basic ).*$/, '$1[redacted]') } : headers;
