// Every store call within a time limit: a store that hangs fails the decision, it never holds it.

/** What a store call past its time limit rejects with. */
export class StoreTimeout extends Error {
  override name = 'StoreTimeout';
  constructor(ms: number) {
    super(`The store did not answer within ${ms} ms.`);
  }
}

/** `op()`, or a rejection with `StoreTimeout` after `ms` (the timer is the global one, read at call time). */
export function bounded<T>(ms: number, op: () => T | Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreTimeout(ms)), ms);
  });
  const call = new Promise<T>((resolve) => resolve(op()));
  return Promise.race([call, limit]).finally(() => clearTimeout(timer));
}
