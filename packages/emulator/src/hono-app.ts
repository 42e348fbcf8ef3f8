// The emulator's Hono apps, on the trie router. `new Hono()` brings Hono's default pair of
// routers (RegExpRouter with TrieRouter) into every bundle of the emulator, for sub-apps whose
// routes are copied into the main app's router anyway (`app.route()`); the main app routes with
// RememberingRouter (router.ts), a TrieRouter too.
import type { Env, Hono } from 'hono';
import { HonoBase } from 'hono/hono-base';
import type { Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

type Handlers<E extends Env> = Hono<E>['router'] extends Router<infer T> ? T : never;

/** A Hono app (`HonoBase`, the class `new Hono()` extends with its default routers) on `router`, by default a TrieRouter. */
export function honoApp<E extends Env>(router: Router<Handlers<E>> = new TrieRouter()): Hono<E> {
  return new HonoBase<E>({ router }) as Hono<E>;
}
