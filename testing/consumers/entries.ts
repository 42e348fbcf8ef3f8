// Every public entry point of every package, imported as a user's project imports it, with a few
// names used. Compiled with the strict fixture's settings against the BUILT declarations by
// `node scripts/consumers.mjs` (testing/release/consumers.test.ts), which also fails when a
// package's "exports" lists an entry this file does not import.
import { AuthError, createMemoryReplayStore, createSigner, verifyRequest, XError, type VerifyResult } from '@x/auth';
import { nodeMac } from '@x/auth/node';
import { formatHttpDate, HEADER, stringToSign, type StringToSign } from '@x/auth/protocol';
import { ClientError, createClient, type Client } from '@x/client';
import { createIdempotency, IdempotencyError } from '@x/client/idempotency';
import { createNodeFetch } from '@x/client/node';
import { instrument } from '@x/client/otel';
import { createMemoryRateLimitStore, createSpendCap, sendMany } from '@x/client/volume';
import { createEmulator, EmulatorError, type Emulator } from '@x/emulator';
import { startEmulator, type RunningEmulator } from '@x/emulator/node';
import { emulatorHandlers, type EmulatorHandlersOptions } from '@x/emulator/msw';
import { emulatorMatchers, useEmulator, type MessageExpectation } from '@x/emulator/vitest';
import { emulatorMatchers as jestMatchers, type CallbackExpectation } from '@x/emulator/jest';
import { saveRawBody, verifyCallbacks as expressCallbacks } from '@x/express';
import { xVerification, type XFastifyOptions } from '@x/fastify';
import { verifyCallbacks as honoCallbacks } from '@x/hono';
import { createGuard, createOtp, type GuardDecision } from '@x/otp';
import { countryOf } from '@x/otp/phone';
import { createRedisStore } from '@x/otp/redis';
import { verifyApiSender } from '@x/otp/verify-api';
import { createRedisReplayStore, type RedisCommands } from '@x/redis';
import { replayStoreChecks } from '@x/redis/testing';
import { SMS_STATUS, type SmsStatusCode } from '@x/service';
import { VERIFY_FAILURES, type VerifyFailure } from '@x/service/failures';
import { analyzeMessage, type MessageAnalysis } from '@x/service/request';
import { SERVICE_HOSTS } from '@x/service/hosts';
import { handleCallback, verifyCallback, WebhookError, type CallbackPayload } from '@x/webhooks';
import { readRequestBody, receiveCallback, type CallbackExchange } from '@x/webhooks/adapter';
import { collect } from '@x/webhooks/node';
import { traceCallbacks } from '@x/webhooks/otel';
import { createRouter, nextDeliveryState } from '@x/webhooks/router';
import { enqueueCallbacks, processCallbacks } from '@x/webhooks/queue';
import { createSignedCallback } from '@x/webhooks/testing';

const credentials = { customerId: 'customer', apiKey: 'AAAA' };
const callbackOptions = { customerId: credentials.customerId, apiKey: credentials.apiKey };

export async function uses(redis: RedisCommands, exchange: CallbackExchange, request: Request): Promise<void> {
  const signed = createSigner(credentials, { mac: nodeMac }).sign({ method: 'GET', url: 'https://x.invalid/v1/x' });
  const headerName: 'authorization' = HEADER.authorization;
  const date: string = formatHttpDate(new Date(0));
  const text: StringToSign = stringToSign({ method: 'GET', contentType: '', date, tsHeaders: {}, resource: '/v1/x' });
  const result: VerifyResult = await verifyRequest({ method: 'GET', url: '/v1/x', headers: signed.headers }, { credentials: () => credentials, replayStore: createMemoryReplayStore() });
  const client: Client = createClient({ ...credentials, fetch: createNodeFetch(), idempotency: createIdempotency({ store: createRedisReplayStore({ client: redis }) }) });
  const unknownSend: boolean = new Error() instanceof IdempotencyError;
  const emulator: Emulator = createEmulator();
  const running: RunningEmulator = await startEmulator({ emulator });
  const callback = createSignedCallback('{"reference_id":"r"}', credentials);
  const verified = await verifyCallback({ body: callback.body, headers: callback.headers }, callbackOptions);
  await handleCallback({ body: callback.body, headers: callback.headers }, callbackOptions, (payload: CallbackPayload) => payload);
  await receiveCallback(exchange, { ...callbackOptions, replayStore: createRedisReplayStore({ client: redis }) }, 1024);
  const bytes: Uint8Array = await readRequestBody(request, 1024);
  const options: XFastifyOptions = { callbacks: callbackOptions, callbackRoutes: ['/callbacks'] };
  const emulatorResponse: Response = await emulator.fetch(new URL('/v1/messaging/r', running.url));
  const delivered: SmsStatusCode = SMS_STATUS.DELIVERED;
  const reason: VerifyFailure = 'clock_skew';
  const analysis: MessageAnalysis = analyzeMessage(VERIFY_FAILURES[reason].text);
  const decision: GuardDecision = await createGuard({ countryOf, store: createRedisStore({ client: redis }) }).check({ phoneNumber: '15555550100' });
  const otp = createOtp({ client });
  const viaVerifyApi = createOtp({ client, sender: verifyApiSender({ policy: [{ method: 'sms' }] }) });
  const router = createRouter();
  const mswOptions: EmulatorHandlersOptions = { hosts: [SERVICE_HOSTS.rest] };
  const sms: MessageExpectation = { to: '15555550100', text: /code/ };
  const callbackWanted: CallbackExpectation = { kind: 'sms', status: 200 };
  const traced: Client = instrument(createClient, credentials, { onSend: ({ referenceId }) => void referenceId });
  const tracedHandler = traceCallbacks(router.handle);
  const volume = [sendMany, createMemoryRateLimitStore(), createSpendCap({ budgets: [{ name: 'daily', max: 1000, periodMs: 86_400_000 }] })];
  const queued = [enqueueCallbacks({ add: async () => ({ id: 'job' }) }), processCallbacks(router)];
  const checks: number = replayStoreChecks.length;
  void [volume, queued, checks, traced, tracedHandler, unknownSend, emulatorHandlers, mswOptions, emulatorMatchers.toHaveSentSms, jestMatchers.toHaveDeliveredCallback, useEmulator, sms, callbackWanted, delivered, analysis, decision, otp, viaVerifyApi, router, nextDeliveryState, headerName, text, result, client, verified, bytes, options, emulatorResponse, saveRawBody, expressCallbacks(callbackOptions), xVerification, honoCallbacks(callbackOptions), collect];
  await running.close();
}

export function errors(error: unknown): string | undefined {
  if (error instanceof AuthError) return error.code;
  if (error instanceof ClientError || error instanceof EmulatorError || error instanceof WebhookError) return error.code;
  return error instanceof XError ? error.code : undefined;
}
