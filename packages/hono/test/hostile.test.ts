// The shared hostile-input contract (testing/hostile.ts) at the Hono adapter on @hono/node-server
// (a web-standard Request carries no GET body: the handler sees the verified, empty one).
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createSignedCallback } from '@x/webhooks/testing';
import { Hono, type Context } from 'hono';
import { hostileScenarios, type HostileApp } from '../../../testing/hostile.js';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { credentials, serveApp } from './receivers.js';

const tools = { credentials, signGet: (url: string, date?: Date) => signRequest({ method: 'GET', url }, credentials, date ? { date } : {}).headers, signCallback: (body: string) => createSignedCallback(body, credentials) };

async function start(): Promise<HostileApp> {
  const reached: unknown[] = [];
  const handler = async (c: Context) => {
    const body = await c.req.text();
    reached.push(body);
    return c.json({ ok: true, body });
  };
  const app = new Hono();
  app.get('/signed', verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() }), handler);
  app.get('/callback', verifyCallbacks({ ...credentials }), handler);
  app.post('/small', verifyCallbacks({ ...credentials, limit: 64 }), handler);
  app.post('/v2', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), handler);
  return { ...(await serveApp(app)), prefixes: [''], posts: '', reached };
}

hostileScenarios('hono', start, tools, 'dropped');
