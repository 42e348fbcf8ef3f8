// The emulator's Hono apps, on Hono's trie router. Not Hono's default RegExpRouter: the routes
// pair a parameter with and without a pattern at one place (`GET /v1/messaging/:id` answers 400
// for a malformed id, `/:id{hex}` 405 for a well-formed one with another method), which
// RegExpRouter refuses; and `new Hono()` would bring both routers into every bundle.
import type { Env, Hono } from 'hono';
import { HonoBase } from 'hono/hono-base';
import type { Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

type Handlers<E extends Env> = Hono<E>['router'] extends Router<infer T> ? T : never;

/** A Hono app (`HonoBase`, the class `new Hono()` extends with its default routers) on `router`, by default a TrieRouter. */
export function honoApp<E extends Env>(router: Router<Handlers<E>> = new TrieRouter()): Hono<E> {
  return new HonoBase<E>({ router }) as Hono<E>;
}
