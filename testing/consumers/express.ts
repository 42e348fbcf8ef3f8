// Compiled with exactOptionalPropertyTypes (test/consumer/tsconfig.json), against the built
// declarations.
import { verifiedCallback, verifyCallbacks, verifySignedRequests } from '@x/express';
import express from 'express';

declare const env: Record<string, string | undefined>;
const app = express();
app.post('/callbacks', verifyCallbacks({ customerId: 'x', apiKey: env.API_KEY, limit: undefined, onError: undefined, replayStore: undefined }), verifiedCallback((req, res) => void res.json(req.callback.reference_id)));
app.post('/v1/messaging', verifySignedRequests({ credentials: () => undefined, replayStore: undefined, allowBasic: undefined, limit: undefined }));
