// The emulator routes with Hono's own TrieRouter (no router of its own in front of it): the trie,
// not Hono's default RegExpRouter, because the routes pair a parameter with and without a pattern
// at one place (`GET /v1/messaging/:id` answers 400 for a malformed id, `/:id{hex}` 405 for a
// well-formed one with another method), which RegExpRouter refuses.
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/emulator.js';
import { local } from './helpers.js';

describe('the router', () => {
  it("is Hono's TrieRouter itself", () => {
    const emulator = createEmulator();
    expect(emulator.app.router).toBeInstanceOf(TrieRouter);
    expect(emulator.app.router.name).toBe(new TrieRouter().name);
    emulator.close();
  });

  it('a parameter with and without its pattern at one place: 400 for a malformed id, 405 for another method on a well-formed one, 404 for an unknown path', async () => {
    const emulator = createEmulator();
    expect((await local(emulator, 'GET', '/v1/messaging/notahexid')).status).toBe(400);
    expect((await local(emulator, 'PUT', '/v1/messaging/0123456789ABCDEF0123456789ABCDEF')).status).toBe(405);
    expect((await local(emulator, 'GET', '/v1/messaging/0123456789ABCDEF0123456789ABCDEF')).status).toBe(404);
    expect((await local(emulator, 'GET', '/v2/unknown')).status).toBe(404);
    emulator.close();
  });
});
