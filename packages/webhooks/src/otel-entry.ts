/**
 * OpenTelemetry for callbacks: a span per verified delivery, linked to the send by its reference
 * id, with the send-to-delivery latency. `@opentelemetry/api` is an optional peer dependency of this
 * entry only; nothing here is in the other entries' bundles.
 *
 * @packageDocumentation
 * @module @x/webhooks/otel
 */
export { traceCallbacks } from './otel.js';
export type { CallbackTelemetryOptions } from './otel.js';
// The types these names use (the main entry has them too).
export type { CallbackPayload } from './types.js';
