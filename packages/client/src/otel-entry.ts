/**
 * OpenTelemetry for the client: a span per call, counters and a duration histogram per operation,
 * built on the client's hooks (`createClient({ hooks })`). `@opentelemetry/api` is an optional peer
 * dependency of this entry only; nothing here is in `@x/client`'s own bundle.
 *
 * @packageDocumentation
 * @module @x/client/otel
 */
export { instrument } from './otel.js';
export type { TelemetryOptions, SendOperation } from './otel.js';
// The types these names use (the main entry has them too).
export type { Client } from './client.js';
export type { CreateClientOptions } from './routing.js';
