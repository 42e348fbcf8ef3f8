// A real Redis Cluster for a suite: three masters on 127.0.0.1 (Debian's redis-server), slots
// spread by `redis-cli --cluster create`, stopped by their PIDs. A missing redis-server fails the
// suite that asks for it (install it: apt-get install redis-server).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './support.js';

const run = promisify(execFile);

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
  });

/** A port whose cluster bus port (+10000) is free too. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + 10_000 < 65_536 && !(await listening(port + 10_000))) return port;
  }
}

export interface RedisCluster {
  /** The masters' ports on 127.0.0.1. */
  ports: number[];
  stop(): Promise<void>;
}

/** Starts `masters` cluster nodes and joins them; answers once `cluster_state:ok`. */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'x-redis-cluster-'));
  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await clusterPort();
      ports.push(port);
      const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      children.push(child);
      child.once('error', () => {});
    }
    for (const port of ports) {
      let up = false;
      for (let i = 0; i < 100 && !up; i++) {
        up = await listening(port);
        if (!up) await new Promise((r) => setTimeout(r, 50));
      }
      if (!up) throw new Error(`redis-server on ${port} did not start (is redis-server installed?)`);
    }
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes']);
    for (let i = 0; i < 200; i++) {
      const infos = await Promise.all(ports.map((p) => run('redis-cli', ['-p', String(p), 'cluster', 'info']).then((r) => r.stdout)));
      if (infos.every((info) => info.includes('cluster_state:ok'))) return { ports, stop };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the Redis Cluster did not reach cluster_state:ok within 10 s');
  } catch (error) {
    await stop();
    throw error;
  }
}
