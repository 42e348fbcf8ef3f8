// A real HTTP server on 127.0.0.1 that counts the requests that reach it: what a request mock let
// through. It answers as the service would an SMS, so a client that reached it succeeds.
const http = require('node:http');

/** Any well-formed credentials: nothing here talks to the service. */
const credentials = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: Buffer.from('ecosystem test key').toString('base64') };

/** @returns {Promise<{ url: string, requests: { method: string, url: string }[], close(): Promise<void> }>} */
async function startCountingServer() {
  const requests = [];
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method, url: req.url });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ reference_id: 'REAL0000000000000000000000000001', status: { code: 290, description: 'Message in progress', updated_on: new Date().toISOString() } }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

module.exports = { credentials, startCountingServer };
