// The memory replay store: what a claim costs when the store is at its cap (every claim evicts the
// oldest key) against a claim below the cap, two ways: a store filling up (an insert only), and a
// steady store where keys expire as fast as they come (an insert and a removal, as at the cap),
// and the floor of any such store: one Map insert and one Map delete. Keys are realistic
// (customer id + UUID nonce), made up front. The official Node client has no replay store.
import { randomUUID } from 'node:crypto';
import { createMemoryReplayStore } from '@x/auth';
import { compare, loop } from './harness.mjs';

const CAP = 100_000; // the default maxEntries
const TTL = 15 * 60 * 1000;
const keys = Array.from({ length: 1 << 18 }, () => `FFFFFFFF-EEEE-DDDD-1234-AB1234567890:${randomUUID()}`);
const mask = keys.length - 1;

// Below the cap, nothing expiring: the store fills up to half the cap and is cleared.
const filling = createMemoryReplayStore({ maxEntries: CAP, now: () => 0 });
let g = 0;
const claimFilling = () => {
  if (filling.size >= CAP / 2) filling.clear();
  if (!filling.claim(keys[g++ & mask], TTL)) throw new Error('a fresh key was refused');
};

// Below the cap, keys expiring: a fake clock that moves 1 ms per claim with a ttl of CAP/2 ms, so each claim
// expires one old key and about CAP/2 keys are held.
let belowClock = 0;
const below = createMemoryReplayStore({ maxEntries: CAP, now: () => belowClock });
let b = 0;
const claimBelow = () => {
  belowClock++;
  if (!below.claim(keys[b++ & mask], CAP / 2)) throw new Error('a fresh key was refused');
};

// At the cap: the clock stands still, the store is full, every claim evicts the oldest key.
const full = createMemoryReplayStore({ maxEntries: CAP, now: () => 0 });
let f = 0;
for (; f < CAP; f++) full.claim(keys[f], TTL);
const claimAtCap = () => {
  if (!full.claim(keys[f++ & mask], TTL)) throw new Error('a fresh key was refused');
};

// Deliveries at the cap: begin + complete of a fresh key on a full store.
const deliveries = createMemoryReplayStore({ maxEntries: CAP, now: () => 0 });
let d = 0;
for (; d < CAP; d++) deliveries.complete(keys[d], `t${d}`, TTL);
const deliverAtCap = () => {
  const key = keys[d++ & mask];
  const begun = deliveries.begin(key, 30_000);
  if (begun.state !== 'started') throw new Error('a fresh delivery was not started');
  deliveries.complete(key, begun.token, TTL);
};

// The floor: insert the new key, delete the one inserted CAP claims ago.
const map = new Map();
let m = 0;
for (; m < CAP; m++) map.set(keys[m], TTL);
const floor = () => {
  map.set(keys[m & mask], TTL);
  map.delete(keys[(m - CAP) & mask]);
  m++;
};

await compare({
  id: 'replay',
  title: `Memory replay store, ${CAP.toLocaleString('en-US')} keys cap`,
  unit: 'claims/s',
  ms: 250,
  rounds: 7,
  notes: ['The official Node client (telesignsdk) has no replay store, so there is no official row.'],
  variants: [
    { name: 'claim below the cap, filling (up to 50 000 keys)', role: 'filling', measure: loop(claimFilling) },
    { name: 'claim below the cap, keys expiring (~50 000 held)', role: 'expiring', measure: loop(claimBelow) },
    { name: 'claim at the cap (evicts the oldest)', measure: loop(claimAtCap) },
    { name: 'delivery begin + complete at the cap', measure: loop(deliverAtCap) },
    { name: 'Map set + delete (floor)', role: 'floor', measure: loop(floor) },
  ],
});
