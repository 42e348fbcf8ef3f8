// Answers that are not the service's: a wrong baseUrl reaches another local app or a proxy, which
// answers HTML or plain text without a service code. The error keeps the status and says to check
// baseUrl; a real answer of the service (JSON with its code) does not say so.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../src/index.js';

interface Scripted {
  status: number;
  type: string | undefined;
  body: string;
}
let next: Scripted = { status: 404, type: 'text/html', body: '' };
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(next.status, next.type ? { 'content-type': next.type } : {});
      res.end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const customer = { customerId: 'FFFFFFFF-EEEE-DDDD-1234-AB1234567890', apiKey: btoa('a key of sixteen') };
const sms = { phoneNumber: '15555550300', message: 'hello', messageType: 'ARN' as const };
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('expected a failure'), (e: unknown) => e);
const send = (answer: Scripted) => {
  next = answer;
  return failure(createClient({ ...customer, baseUrl, retry: false }).messaging.send(sms)) as Promise<ApiError>;
};

const NOT_FOUND_PAGE = '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>Cannot POST /v1/messaging</p></body></html>';

describe('an answer that does not look like the service', () => {
  it('404 text/html from another local app: the status is kept, the message says it is not the service and to check baseUrl', async () => {
    const error = await send({ status: 404, type: 'text/html; charset=utf-8', body: NOT_FOUND_PAGE });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('api_error');
    expect(error.status).toBe(404);
    expect(error.serviceCode).toBeUndefined();
    expect(error.message).toMatch(/HTTP 404/);
    expect(error.message).toMatch(/does not look like/);
    expect(error.message).toMatch(/text\/html/);
    expect(error.message).toMatch(/check baseUrl/);
  });

  it('200 text/html (a proxy login page): invalid_response, with the same advice', async () => {
    const error = await send({ status: 200, type: 'text/html', body: '<html><body>Please log in</body></html>' });
    expect(error.code).toBe('invalid_response');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/does not look like/);
    expect(error.message).toMatch(/check baseUrl/);
  });

  it('property: any status from 400, any body that is not JSON, with or without a content type', async () => {
    const notJson = fc.string({ maxLength: 200 }).filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 400, max: 599 }), notJson, fc.constantFrom('text/html', 'text/plain', undefined), async (status, body, type) => {
        const error = await send({ status, type, body });
        expect(error.status).toBe(status);
        expect(error.message).toMatch(/does not look like .* check baseUrl/);
      }),
      { numRuns: 40 },
    );
  });

  it("the service's own error (JSON with its code) does not get that advice", async () => {
    const error = await send({ status: 404, type: 'application/json', body: JSON.stringify({ status: { code: 10017, description: 'Customer ID / Reference ID not found' } }) });
    expect(error.serviceCode).toBe(10017);
    expect(error.message).not.toMatch(/baseUrl/);
  });
});
