// Starts a real redis-server on 127.0.0.1 and a free port for the suite; stops it by its PID.
// A missing redis-server fails the suite (install it: apt-get install redis-server).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './support.js';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisPort: number;
  }
}

const ping = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(String(data).startsWith('+PONG'));
    });
  });

let child: ChildProcess | undefined;

export default async function setup(project: TestProject) {
  const port = await freePort();
  child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => {
    child!.once('error', (error) => reject(new Error(`redis-server could not start (${error.message}); install it with apt-get install redis-server.`)));
  });
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      if (await ping(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not answer PING within 5 s.');
  })();
  await Promise.race([ready, failed]);
  project.provide('redisPort', port);
  return () => {
    child?.kill('SIGTERM');
  };
}
