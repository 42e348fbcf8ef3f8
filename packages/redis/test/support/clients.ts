// Every client the stores support, connected to a real redis-server or a real Cluster: the
// conformance suites of @x/redis and @x/otp run on each. Each connector answers a ready client and
// a function that closes it.
import { GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import { Cluster as Ioredis6Cluster, Redis as Ioredis6 } from 'ioredis';
import { Cluster as Ioredis5Cluster, Redis as Ioredis5 } from 'ioredis5';
import { Cluster as IovalkeyCluster, Redis as Iovalkey } from 'iovalkey';
import { createClient as createClient6, createCluster as createCluster6 } from 'redis';
import { createClient as createClient5, createCluster as createCluster5 } from 'redis5';

export interface Connected {
  client: object;
  close(): Promise<void>;
}
export interface Connector {
  name: string;
  single(port: number): Promise<Connected>;
  cluster(ports: number[]): Promise<Connected>;
}

const ready = async <T extends { once(event: string, listener: (...args: unknown[]) => void): unknown; disconnect(): void }>(client: T): Promise<Connected> => {
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
  });
  return { client, close: async () => client.disconnect() };
};
const nodes = (ports: number[]) => ports.map((port) => ({ host: '127.0.0.1', port }));

export const connectors: Connector[] = [
  { name: 'ioredis 6', single: (port) => ready(new Ioredis6({ port, host: '127.0.0.1' })), cluster: (ports) => ready(new Ioredis6Cluster(nodes(ports))) },
  { name: 'ioredis 5', single: (port) => ready(new Ioredis5({ port, host: '127.0.0.1' })), cluster: (ports) => ready(new Ioredis5Cluster(nodes(ports))) },
  { name: 'iovalkey', single: (port) => ready(new Iovalkey({ port, host: '127.0.0.1' })), cluster: (ports) => ready(new IovalkeyCluster(nodes(ports))) },
  {
    name: 'node-redis 6',
    single: async (port) => {
      const client = await createClient6({ url: `redis://127.0.0.1:${port}` }).connect();
      return { client, close: async () => void (await client.close()) };
    },
    cluster: async (ports) => {
      const client = await createCluster6({ rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })) }).connect();
      return { client, close: async () => void (await client.close()) };
    },
  },
  {
    name: 'node-redis 5',
    single: async (port) => {
      const client = await createClient5({ url: `redis://127.0.0.1:${port}` }).connect();
      return { client, close: async () => void (await client.close()) };
    },
    cluster: async (ports) => {
      const client = await createCluster5({ rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })) }).connect();
      return { client, close: async () => void (await client.close()) };
    },
  },
  {
    name: 'valkey-glide 2',
    single: async (port) => {
      const client = await GlideClient.createClient({ addresses: nodes([port]) });
      return { client, close: async () => client.close() };
    },
    cluster: async (ports) => {
      const client = await GlideClusterClient.createClient({ addresses: nodes(ports) });
      return { client, close: async () => client.close() };
    },
  },
];
