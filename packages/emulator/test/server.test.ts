import { signRequest } from '@x/auth';
import { execFileSync, spawn } from 'node:child_process';
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

  it('prints the base URL and the customer id (never a key that was given), and serves signed requests', async () => {
    const customer = { customerId: '11111111-2222-4333-8444-555555555555', apiKey: btoa('cli test key') };
    const child = spawn(process.execPath, [cli, '--port', '0', '--customer', `${customer.customerId}:${customer.apiKey}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const match = /listening on (\S+)/.exec(output);
          if (match && output.includes('api key')) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(output).toContain(customer.customerId);
      expect(output).not.toContain(customer.apiKey);
      const target = `${url}/v1/voice`;
      const response = await fetch(target, { headers: signRequest({ method: 'GET', url: target }, customer).headers });
      expect(response.status).toBe(200);
      const wrong = await fetch(target, { headers: signRequest({ method: 'GET', url: target }, DEFAULT_CUSTOMER).headers });
      expect(wrong.status).toBe(401);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('--control-token: printed at start, required on the control routes', async () => {
    const token = 'cli-control-token-0123456789';
    const child = spawn(process.execPath, [cli, '--port', '0', '--control-token', token], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const match = /listening on (\S+)/.exec(output);
          if (match && output.includes('control token')) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      expect(output).toContain(`control token: ${token}`);
      expect((await fetch(`${url}/_emulator/outbox`)).status).toBe(403);
      expect((await fetch(`${url}/_emulator/outbox`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a malformed --customer with exit code 2', () => {
    try {
      execFileSync(process.execPath, [cli, '--customer', 'no-colon'], { stdio: 'pipe' });
      expect.unreachable();
    } catch (error) {
      expect((error as { status: number }).status).toBe(2);
    }
  });
});
