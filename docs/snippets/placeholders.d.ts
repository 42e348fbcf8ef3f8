// The reader's own values, which README snippets use without defining them. Keep this list
// short: anything from the SDK is imported in the snippet itself, from its module, and a snippet
// that needs more context than this is written out whole. Types only: a ```ts run block cannot
// use these (they do not exist at run time), so runnable blocks are complete programs.
export {};

declare global {
  /** Your customer id and API key (from the portal; the emulator's `DEFAULT_CUSTOMER` in tests). */
  const customerId: string;
  const apiKey: string;
  /** What the user typed: a verification code. */
  const userInput: string;
  /** Your storage. */
  const db: { saveStatus(...values: unknown[]): Promise<void> };
  /** Your look-up of a customer's key, for verifying signed requests. */
  function lookup(customerId: string): { customerId: string; apiKey: string } | undefined;
  /** Your application's own reactions. */
  function signIn(): void;
  function grant(): void;
  function log(...values: unknown[]): void;
}
