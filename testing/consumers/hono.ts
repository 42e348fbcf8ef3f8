// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations.
import { verifyCallbacks, verifySignedRequests } from '@x/hono';
import { Hono } from 'hono';

type Env = { Bindings: { API_KEY?: string } };
const app = new Hono<Env>();
app.post('/callbacks', verifyCallbacks<Env>((c) => ({ customerId: 'x', apiKey: c.env.API_KEY, limit: undefined, onError: undefined, replayStore: undefined })), (c) => c.json(c.get('callback').reference_id));
app.post('/v1/messaging', verifySignedRequests({ credentials: () => undefined, replayStore: undefined, limit: undefined }), (c) => c.text(c.get('customerId')));
