// `npm start`: the whole sign-in on 127.0.0.1 against the emulator (no account needed). The shared
// driver (../otp-driver) starts the emulator and a node:http server, and plays the user; here the
// Fastify app answers on that server (its serverFactory). Exit 0, or 1 with the reason.
import { playSignIn } from '@x/example-otp-driver';
import { createApp } from './app.mjs';

// With your own server: await createApp({ client: createClient() }).listen({ port: 3000 })
await playSignIn('Fastify', async ({ client, server }) => {
  const app = createApp({ client, fastify: { serverFactory: (handler) => server.on('request', handler) } });
  await app.ready();
  return () => app.close();
});
