// A TCP proxy on 127.0.0.1 in front of a real redis-server that loses the reply to one command:
// the command reaches Redis (which runs it), its reply is thrown away and the client's connection
// is cut, as when a network fails between the two. Which command: the first one whose bytes
// contain `marker` (e.g. a text of the script it runs).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface ReplyDroppingProxy {
  port: number;
  /** How many replies were dropped so far. */
  readonly dropped: number;
  close(): Promise<void>;
}

export async function startReplyDroppingProxy(redisPort: number, marker: string, times = 1): Promise<ReplyDroppingProxy> {
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(redisPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let drop = false;
    client.on('data', (chunk) => {
      if (dropped < times && chunk.includes(marker)) {
        drop = true;
        dropped++;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!drop) return void client.write(chunk);
      // The reply to the marked command (and anything after it on this connection) is lost.
      client.destroy();
      upstream.destroy();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    get dropped() {
      return dropped;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
