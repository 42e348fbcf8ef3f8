// `npm start`: the whole sign-in on 127.0.0.1 against the emulator (no account needed). The shared
// driver (../otp-driver) starts the emulator and a node:http server, and plays the user; here the
// Hono app answers on that server (@hono/node-server's listener). Exit 0, or 1 with the reason.
import { getRequestListener } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { playSignIn } from '@x/example-otp-driver';
import { createApp } from './app.mjs';

// With your own server: serve({ fetch: createApp({ client: createClient(), ipOf }).fetch, port: 3000 })
await playSignIn('Hono', ({ client, server }) => {
  server.on('request', getRequestListener(createApp({ client, ipOf: (c) => getConnInfo(c).remote.address }).fetch));
});
