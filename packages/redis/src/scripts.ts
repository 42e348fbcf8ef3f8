// The one seam between the stores and a Redis client: every store operation is a Lua script run
// with `EVAL script numkeys keys... args...`, and each supported client spells that call its own
// way. The client is recognised once, at creation, here; anything else is refused loudly (a client
// that ignores options it does not know, as node-redis does with positional ones, would be used
// and silently wrong). No client is imported: the adapters call the client's own methods.
import { XError } from '@x/auth';

/**
 * What every store of this package (and `@x/otp/redis`) runs its scripts through: one `EVAL`.
 * Build one with {@link redisScripts}.
 */
export interface RedisScripts {
  /**
   * Runs `script` atomically on the server with `KEYS` and `ARGV`. On a Cluster all `keys` must
   * hash to one slot (a script's keys share a hash tag); the client routes the call by them.
   * Replies come back as Redis gave them: integers as numbers, bulk strings as strings, nil as null.
   */
  eval(script: string, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown>;
  /** The client's family, as recognised: `ioredis` (ioredis 5, 6 and iovalkey), `node-redis` (redis 5, 6) or `valkey-glide`. */
  readonly family: 'ioredis' | 'node-redis' | 'valkey-glide';
  /** True for a Cluster client (`new Cluster(...)`, `createCluster(...)`, `GlideClusterClient`). */
  readonly cluster: boolean;
}

/** An ioredis 5 or 6 client (`Redis` or `Cluster`) or iovalkey's: `eval(script, numKeys, ...keysAndArgs)`. */
export interface IoredisLikeClient {
  /** `EVAL` with the keys' count, then keys and arguments. */
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
}
/** A node-redis 5 or 6 client (`createClient()` or `createCluster()`): `eval(script, { keys, arguments })`. */
export interface NodeRedisLikeClient {
  /** `EVAL` with keys and arguments in an options object. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}
/** A valkey-glide 2 client (`GlideClient` or `GlideClusterClient`): `customCommand(args)`. */
export interface GlideLikeClient {
  /** Any command as its words. */
  customCommand(args: string[]): Promise<unknown>;
}
/**
 * A client the stores can drive: ioredis 5 or 6 (`Redis`, `Cluster`), iovalkey, node-redis 5 or 6
 * (`createClient`, `createCluster`), valkey-glide 2 (`GlideClient`, `GlideClusterClient`). Which one
 * it is is recognised at creation; any other object is refused with `XError('unsupported_client')`.
 */
export type RedisClient = IoredisLikeClient | NodeRedisLikeClient | GlideLikeClient;

/** The clients the stores support, as error messages name them. */
export const SUPPORTED_CLIENTS =
  'ioredis 5 or 6 (new Redis(process.env.REDIS_URL) or new Cluster(nodes)), iovalkey, node-redis 5 or 6 (createClient() or createCluster() of the redis package) or valkey-glide 2 (GlideClient, GlideClusterClient)';

const has = (client: object, name: string) => typeof (client as Record<string, unknown>)[name] === 'function';
const text = (args: ReadonlyArray<string | number>) => args.map(String);

/** Which family a client is of, by methods only that family has; undefined for anything else. */
function familyOf(client: object): RedisScripts['family'] | undefined {
  // ioredis and iovalkey: `defineCommand` and `call` are theirs, `eval` is positional.
  if (has(client, 'defineCommand') && has(client, 'call') && has(client, 'eval')) return 'ioredis';
  // node-redis 5/6: upper-case command aliases, `sendCommand`, `isOpen`; `eval` takes an options object.
  if (has(client, 'EVAL') && has(client, 'sendCommand') && has(client, 'eval') && 'isOpen' in client) return 'node-redis';
  // valkey-glide: `invokeScript` and `customCommand`.
  if (has(client, 'invokeScript') && has(client, 'customCommand')) return 'valkey-glide';
  return undefined;
}

/**
 * Recognises `client` and answers the seam the stores run their scripts through. Throws
 * `XError('invalid_options')` without a client and `XError('unsupported_client')` for any other
 * object (a hand-made one included: its arguments could not be checked), naming the supported
 * clients. `store` names the caller in those messages.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { redisScripts } from '@x/redis';
 *
 * const scripts = redisScripts(await createClient({ url: process.env.REDIS_URL! }).connect());
 * await scripts.eval("return redis.call('INCR', KEYS[1])", ['{counter}:hits'], []);
 * ```
 */
export function redisScripts(client: unknown, store = 'redisScripts'): RedisScripts {
  if (!client || typeof client !== 'object') {
    throw new XError('invalid_options', `${store} needs { client }: a Redis client, e.g. new Redis(process.env.REDIS_URL) of ioredis or createClient() of redis.`);
  }
  const family = familyOf(client);
  if (family === 'ioredis') {
    const io = client as IoredisLikeClient & { isCluster?: boolean };
    return { family, cluster: io.isCluster === true, eval: (script, keys, args) => io.eval(script, keys.length, ...keys, ...args) };
  }
  if (family === 'node-redis') {
    const node = client as NodeRedisLikeClient;
    return { family, cluster: 'masters' in client, eval: (script, keys, args) => node.eval(script, { keys: [...keys], arguments: text(args) }) };
  }
  if (family === 'valkey-glide') {
    // EVAL through customCommand: glide routes it by its first key on a cluster, and this needs no
    // `Script` object (nothing of glide is imported).
    const glide = client as GlideLikeClient;
    return {
      family,
      cluster: has(client, 'invokeScriptWithRoute'),
      eval: (script, keys, args) => glide.customCommand(['EVAL', script, String(keys.length), ...keys, ...text(args)]),
    };
  }
  throw new XError(
    'unsupported_client',
    `${store} was given a client it does not recognise: the store's scripts would be sent in a form it may not read, and be silently wrong. ` +
      `Pass ${SUPPORTED_CLIENTS}.`,
  );
}
