// The shared hostile-input contract (testing/hostile.ts) at the Express adapter, Express 4 and 5,
// behind a global express.json() that keeps no raw bytes and without any parser.
import { createMemoryReplayStore, signRequest } from '@x/auth';
import { createSignedCallback } from '@x/webhooks/testing';
import type express5 from 'express';
import { hostileScenarios, type HostileApp } from '../../../testing/hostile.js';
import { verifyCallbacks, verifySignedRequests } from '../src/index.js';
import { credentials, frameworks, listen } from './receivers.js';

const tools = { credentials, signGet: (url: string, date?: Date) => signRequest({ method: 'GET', url }, credentials, date ? { date } : {}).headers, signCallback: (body: string) => createSignedCallback(body, credentials) };

for (const [name, express] of frameworks) {
  const start = async (): Promise<HostileApp> => {
    const reached: unknown[] = [];
    const handler = (req: express5.Request, res: express5.Response) => {
      reached.push(req.body);
      res.json({ ok: true, body: req.body ?? null });
    };
    const routes = (app: express5.Express) => {
      app.get('/signed', verifySignedRequests({ credentials: (id) => (id === credentials.customerId ? credentials : undefined), replayStore: createMemoryReplayStore() }), handler);
      app.get('/callback', verifyCallbacks({ ...credentials }), handler);
      app.post('/small', verifyCallbacks({ ...credentials, limit: 64 }), handler);
      app.post('/v2', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), handler);
      app.use((error: Error, _req: express5.Request, res: express5.Response, _next: express5.NextFunction) => void res.status(500).json({ error: error.message }));
      return app;
    };
    // A global JSON parser that keeps no raw bytes, before the verifiers.
    const parsedFirst = express();
    parsedFirst.use(express.json({ type: () => true }));
    const app = express();
    app.use('/parsed-first', routes(parsedFirst));
    app.use('/plain', routes(express()));
    return { ...(await listen(app)), prefixes: ['/parsed-first', '/plain'], posts: '/plain', reached };
  };
  hostileScenarios(name, start, tools, 'refused');
}
