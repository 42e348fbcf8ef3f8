// The emulator's router answers exactly as Hono's TrieRouter over the same routes, for known
// paths, paths with parameters and unknown paths, asked once or many times (a remembered answer
// is the trie's answer), and remembers a bounded number of paths.
import fc from 'fast-check';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/emulator.js';
import { REMEMBERED_PATHS, RememberingRouter } from '../src/router.js';

const routes = createEmulator().app.routes;
const build = <R extends { add(method: string, path: string, handler: number): void }>(router: R): R => {
  routes.forEach((route, i) => router.add(route.method, route.path, i));
  return router;
};
const plain = (result: unknown) => JSON.parse(JSON.stringify(result)) as unknown;

const segment = fc.oneof(
  fc.constantFrom('v1', 'messaging', 'phoneid', 'standard', 'verify', 'sms', 'call', 'voice', 'score', 'completion', 'intelligence', 'verification', 'state', '_emulator', 'outbox', 'inspector', 'x'),
  fc.constantFrom('0123456789ABCDEF0123456789ABCDEF', '15555550100', '+15555550100', 'notahexid'),
  fc.stringMatching(/^[a-z0-9%.+-]{0,12}$/),
);
const path = fc.array(segment, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');

describe('RememberingRouter', () => {
  it('answers as the trie does, the first time and every time after', () => {
    const ours = build(new RememberingRouter<number>());
    const trie = build(new TrieRouter<number>());
    fc.assert(
      fc.property(method, path, (m, p) => {
        const expected = plain(trie.match(m, p));
        expect(plain(ours.match(m, p))).toEqual(expected);
        expect(plain(ours.match(m, p))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('reuses the answer of a path without parameters, never one with parameters', () => {
    const ours = build(new RememberingRouter<number>());
    expect(ours.match('POST', '/v1/messaging')).toBe(ours.match('POST', '/v1/messaging'));
    const id = '0123456789ABCDEF0123456789ABCDEF';
    expect(ours.match('GET', `/v1/messaging/${id}`)).not.toBe(ours.match('GET', `/v1/messaging/${id}`));
  });

  it(`remembers at most ${REMEMBERED_PATHS} paths (unknown paths by the thousand are searched, not kept)`, () => {
    const ours = build(new RememberingRouter<number>());
    for (let i = 0; i < REMEMBERED_PATHS + 50; i++) ours.match('GET', `/v2/unknown-${i}`);
    expect(ours.match('GET', `/v2/unknown-${REMEMBERED_PATHS + 10}`)).not.toBe(ours.match('GET', `/v2/unknown-${REMEMBERED_PATHS + 10}`));
    expect(ours.match('GET', '/v2/unknown-1')).toBe(ours.match('GET', '/v2/unknown-1'));
  });
});
