// `npm start`: the whole sign-in on 127.0.0.1 against the emulator (no account needed). The shared
// driver (../otp-driver) starts the emulator and a node:http server, and plays the user; here the
// Express app answers on that server. Exit 0, or 1 with the reason.
import { playSignIn } from '@x/example-otp-driver';
import { createApp } from './app.mjs';

// With your own server: createApp({ client: createClient() }).listen(3000)
await playSignIn('Express', ({ client, server }) => {
  server.on('request', createApp({ client }));
});
