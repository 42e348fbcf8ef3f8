// The application: what you deploy. Two routes of its own (start and check a verification) and the
// callback route, where @x/express lets only correctly signed callbacks through, each processed once.
import { createMemoryReplayStore } from '@x/auth';
import { verifyCallbacks } from '@x/express';
import express from 'express';

/**
 * @param {object} options
 * @param {import('@x/client').Client} options.client  the service's client
 * @param {{ customerId: string, apiKey: string }} options.credentials  verify the callbacks with these
 */
export function createApp({ client, credentials }) {
  const deliveries = new Map(); // reference id -> the last delivery report: your database in real life
  const app = express();

  // Before express.json(): the verifier reads the raw body itself (the signature covers its bytes).
  // A memory replay store is for one process; several processes share createRedisReplayStore() (@x/redis).
  app.post('/callbacks', verifyCallbacks({ ...credentials, replayStore: createMemoryReplayStore() }), (req, res) => {
    const update = req.callback; // verified and typed
    deliveries.set(update.reference_id, { status: update.status, codeState: update.verify?.code_state, header: req.callbackHeader });
    res.sendStatus(200); // 2xx once saved; an error or a 5xx and the service's retry is processed
  });

  app.use(express.json());

  app.post('/verifications', async (req, res) => {
    const { data } = await client.verify.sms({ phoneNumber: req.body.phoneNumber, template: 'Your Acme code is $$CODE$$' });
    res.status(201).json({ referenceId: data.reference_id });
  });

  app.post('/verifications/:id/check', async (req, res) => {
    const { data } = await client.verify.check(req.params.id, req.body.code);
    res.json({ codeState: data.verify.code_state });
  });

  app.get('/verifications/:id', (req, res) => {
    res.json({ delivery: deliveries.get(req.params.id) ?? null });
  });

  return app;
}
