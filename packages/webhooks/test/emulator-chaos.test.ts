// The emulator's callback chaos against a receiver on 127.0.0.1 that verifies every callback and
// keeps each message's state with nextDeliveryState: out of order, late and repeated callbacks end
// in the final status.
import { DEFAULT_CUSTOMER, type Emulator } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { signRequest } from '@x/auth';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCallback, type CallbackPayload } from '../src/index.js';
import { deliveryStateOf, nextDeliveryState, type DeliveryState } from '../src/router-entry.js';

const arrivals: number[] = [];
const states = new Map<string, DeliveryState>();
let receiver: Server;
let server: RunningEmulator;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void verifyCallback({ body: Buffer.concat(chunks), headers: req.headers as Record<string, string> }, { apiKey: DEFAULT_CUSTOMER.apiKey, customerId: DEFAULT_CUSTOMER.customerId }).then((result) => {
        if (!result.ok) return void res.writeHead(401).end();
        const payload = result.payload as CallbackPayload;
        arrivals.push(payload.status!.code);
        const incoming = deliveryStateOf(payload)!;
        states.set(payload.reference_id, nextDeliveryState(states.get(payload.reference_id), incoming));
        res.writeHead(204).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;
  server = await startEmulator({ customers: [{ ...DEFAULT_CUSTOMER, callbackUrl: url }], deliveryDelayMs: 5, callbacks: { retryDelaysMs: [] } });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function sms(emulator: Emulator, phone: string): Promise<string> {
  const url = `${server.url}/v1/messaging`;
  const body = new URLSearchParams({ phone_number: phone, message: 'hello', message_type: 'ARN' }).toString();
  const { headers } = signRequest({ method: 'POST', url, body, contentType: 'application/x-www-form-urlencoded' }, DEFAULT_CUSTOMER);
  const answer = (await (await fetch(url, { method: 'POST', headers, body })).json()) as { reference_id: string };
  await emulator.idle();
  return answer.reference_id;
}

describe('nextDeliveryState under the emulator\'s callback chaos', () => {
  it('reorder: 290 arrives after 200; the state stays delivered', async () => {
    arrivals.length = 0;
    server.emulator.faults.add({ type: 'callback', chaos: 'reorder' });
    const ref = await sms(server.emulator, '15555550170');
    expect(arrivals).toEqual([200, 290]);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
  });

  it('late and duplicated: the state stays delivered', async () => {
    arrivals.length = 0;
    server.emulator.faults.add({ type: 'callback', chaos: 'late', delayMs: 200 });
    const ref = await sms(server.emulator, '15555550171'); // idle() waits for the late one too
    server.emulator.faults.add({ type: 'callback', chaos: 'duplicate', copies: 2 });
    const twice = await sms(server.emulator, '15555550172');
    expect(arrivals).toEqual([200, 290, 200, 200, 200]);
    expect(states.get(ref)).toMatchObject({ code: 200, final: true });
    expect(states.get(twice)).toMatchObject({ code: 200, final: true });
  });
});
