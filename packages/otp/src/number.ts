// Phone numbers as the guard keys them: digits with the country code, nothing else.

/**
 * The digits of a number written with its country code (a leading "+", spaces, dashes, dots and
 * parentheses removed, by the rule the client applies before sending), or undefined when what is
 * left is not 8 to 15 digits.
 */
export function phoneDigits(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const digits = value.replace(/[\s().-]/g, '').replace(/^\+/, '');
  return /^\d{8,15}$/.test(digits) ? digits : undefined;
}
