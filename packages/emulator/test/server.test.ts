import { signRequest } from '@x/auth';
import { execFileSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CUSTOMER } from '../src/index.js';
import { startEmulator } from '../src/node.js';
import { selfSignedCertificate } from '../../../testing/support.js';

describe('HTTPS, when given a key and certificate', () => {
  it('serves the same API over TLS', async () => {
    const { key, cert } = selfSignedCertificate();
    const server = await startEmulator({ tls: { key, cert } });
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const url = `${server.url}/v1/voice`;
      const { headers } = signRequest({ method: 'GET', url }, DEFAULT_CUSTOMER);
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest(url, { headers, ca: cert }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
      expect(JSON.parse(body)).toEqual({ calls: [] });
    } finally {
      await server.close();
    }
  });
});

describe('x-emulator CLI', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

  it('--help explains the options and the test numbers', () => {
    const help = execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    expect(help).toMatch(/--port/);
    expect(help).toMatch(/--customer/);
    expect(help).toMatch(/--callback-url/);
    expect(help).toMatch(/\.\.\.0002/);
  });

  // Serving signed requests for --customer and requiring --control-token: cli.test.ts.
  it('refuses a malformed --customer with exit code 2', () => {
    try {
      execFileSync(process.execPath, [cli, '--customer', 'no-colon'], { stdio: 'pipe' });
      expect.unreachable();
    } catch (error) {
      expect((error as { status: number }).status).toBe(2);
    }
  });
});
