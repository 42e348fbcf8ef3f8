// Which Redis clients the stores can drive, decided once at creation, in this one file (the place
// a seam for more clients replaces). The stores send `SET key value PX ms NX` and
// `EVAL script numKeys ...args` in ioredis's positional form. node-redis takes the same commands
// with options in objects (`set(key, value, { PX, NX })`, `eval(script, { keys, arguments })`) and
// ignores positional options without an error: given to these stores, it claimed a nonce twice and
// wrote no expiry. So a client is accepted only when it is of the ioredis family (ioredis 5 and 6,
// iovalkey: `defineCommand` and `call` are theirs), and refused otherwise, never used and wrong.
import { XError } from '@x/auth';

const SUPPORTED = 'ioredis 5 or 6 (new Redis(process.env.REDIS_URL)), or iovalkey (the same API)';

const has = (client: object, name: string) => typeof (client as Record<string, unknown>)[name] === 'function';

/**
 * Throws an `XError` unless `client` is an ioredis-family client with the commands the store
 * needs: `invalid_options` when there is no client, `unsupported_client` when it is another client.
 */
export function checkClient(client: unknown, store: string, commands: readonly string[]): void {
  if (!client || typeof client !== 'object') {
    throw new XError('invalid_options', `${store} needs { client }: an ioredis client, e.g. new Redis(process.env.REDIS_URL).`);
  }
  const nodeRedis = has(client, 'EVAL') || has(client, 'SET') || 'isOpen' in client;
  if (nodeRedis || !has(client, 'defineCommand') || !has(client, 'call') || !commands.every((name) => has(client, name))) {
    throw new XError(
      'unsupported_client',
      `${store} was given ${nodeRedis ? 'a node-redis client (the redis package)' : 'a client that is not of the ioredis family'}: ` +
        `its commands take their options in another form, so the store's SET ... PX ... NX and scripts would be silently wrong with it. ` +
        `Pass ${SUPPORTED}. Support for node-redis is planned.`,
    );
  }
}
