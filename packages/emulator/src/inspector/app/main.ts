// Emulator inspector (served by @x/emulator): reads and changes the emulator through its control
// routes. Bundled by esbuild at build time (build/inspector.ts) into the module the emulator serves.
import { askForToken, useToken } from './api.js';
import { wire } from './actions.js';
import { renderCallbacks } from './callbacks.js';
import { renderClock } from './clock.js';
import { fillTables } from './data.js';
import { renderFaults } from './faults.js';
import { renderInbox } from './inbox.js';
import { renderJournal } from './journal.js';
import { listen } from './live.js';
import { renderWith } from './store.js';
import { renderTransactions } from './transactions.js';
import { showView, viewFromHash } from './views.js';

renderWith({ outbox: renderInbox, transactions: renderTransactions, callbacks: renderCallbacks, journal: renderJournal, faults: renderFaults, clock: renderClock });
fillTables();

const tokenInHash = /(?:^#|&)token=([^&]*)/.exec(location.hash);
let unreadableToken = false;
if (tokenInHash) {
  try {
    useToken(decodeURIComponent(tokenInHash[1]!));
  } catch {
    // A malformed %-escape: no token is taken from the address, the page asks for it.
    unreadableToken = true;
  }
  // Out of the address bar and the history.
  history.replaceState(null, '', location.pathname + location.search + '#' + viewFromHash());
}
wire();
showView(viewFromHash(), false);
document.documentElement.setAttribute('data-ready', '');
if (unreadableToken) askForToken('The control token in the address could not be read (a malformed %-escape): type the control token the emulator printed when it started.');
void listen();
