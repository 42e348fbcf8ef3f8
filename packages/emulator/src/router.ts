// The emulator's router: Hono's TrieRouter, with the answer for a method and path that matched no
// route parameter kept and reused (every SMS is `POST /v1/messaging`).
//
// The trie, not Hono's default RegExpRouter: the routes pair a parameter with and without a pattern
// at the same place (`GET /v1/messaging/:id` answers 400 for a malformed id, `/:id{hex}` answers
// 405 for a well-formed one), which RegExpRouter refuses. A trie search walks the segments and
// builds its answer anew on every request (about 2% of a signed SMS); an answer without parameters
// is the same for every request with that method and path, and Hono only reads it.
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** How many paths are remembered; beyond it (unknown paths sent by the thousand) they are searched each time. */
export const REMEMBERED_PATHS = 256;

export class RememberingRouter<T> implements Router<T> {
  readonly name = 'TrieRouter (paths without parameters remembered)';
  readonly #trie = new TrieRouter<T>();
  readonly #answers = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    this.#answers.clear();
    this.#size = 0;
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#answers.get(method);
    const known = byPath?.get(path);
    if (known) return known;
    const result = this.#trie.match(method, path);
    if (this.#size < REMEMBERED_PATHS && result[0].every(([, params]) => !hasKeys(params))) {
      if (!byPath) this.#answers.set(method, (byPath = new Map()));
      byPath.set(path, result);
      this.#size++;
    }
    return result;
  }
}

function hasKeys(params: object): boolean {
  for (const _ in params) return true;
  return false;
}
