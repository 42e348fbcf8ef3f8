// The clock: the emulator's time, ticking here between reads.
import { $ } from './dom.js';
import { duration, iso } from './format.js';
import { state } from './store.js';

export function renderClock(): void {
  const c = state.clock;
  if (!c) {
    $('clock-now').textContent = '–';
    return;
  }
  const now = c.now + (Date.now() - c.readAt);
  const el = $('clock-now');
  el.setAttribute('datetime', iso(now));
  el.textContent = iso(now).replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  $('clock-offset').textContent = c.offsetMs ? '(' + duration(c.offsetMs) + (c.offsetMs > 0 ? ' ahead' : ' behind') + ')' : '';
}
