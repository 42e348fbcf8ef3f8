// How a path is shown where it is kept (log lines at info and above, telemetry): phone numbers
// masked but their last 4 digits. A module of its own, so that @x/client/otel shares only this.

/** A path segment that is a phone number (8 to 15 digits, maybe with + or %2B). */
const PHONE_SEGMENT = /^(?:\+|%2B)?\d{8,15}$/i;

/** The path with every phone-number segment masked but its last 4 digits. */
export const maskPath = (path: string): string =>
  path
    .split('/')
    .map((segment) => (PHONE_SEGMENT.test(segment) ? segment.slice(0, -4).replace(/\d/g, '*') + segment.slice(-4) : segment))
    .join('/');
