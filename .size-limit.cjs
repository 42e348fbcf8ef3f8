// Size budgets per entry point (size-limit with its esbuild preset): each entry's ESM build,
// bundled with its dependencies, minified and gzipped, as a user's bundler ships it. Measured from
// the built dist/ files (build first). `npx size-limit` prints the table; a row over its limit fails.
// Why each budget is what it is: docs/decisions.md, "Size budgets".

// The portable entries are measured as a neutral-platform bundle (no browser or Node shims), the
// Node-only entries for Node. Without this repository's tsconfig (tsconfigRaw): its `paths` would
// send `#` imports to the sources, which a user's bundler never sees.
const neutral = (config) => ({ ...config, format: 'esm', platform: 'neutral', mainFields: ['module', 'main'], tsconfigRaw: '{}' });
const node = (config) => ({ ...config, format: 'esm', platform: 'node', tsconfigRaw: '{}' });

/** One row: the entry file, what is imported from it ('*' for everything), the budget in bytes. */
const row = (name, path, imports, bytes, modify = neutral) => ({
  name,
  path,
  import: imports,
  limit: `${bytes} B`,
  gzip: true,
  modifyEsbuildConfig: modify,
});

/** A row measured without a dependency the user's application brings anyway. */
const without = (external) => (config) => ({ ...neutral(config), external });

module.exports = [
  row('@x/auth: signRequest only', 'packages/auth/dist/index.js', '{ signRequest }', 5_000),
  row('@x/auth: sign + verify + replay store', 'packages/auth/dist/index.js', '{ signRequest, createSigner, verifyRequest, createMemoryReplayStore, basicAuthorization, callbackSignature }', 9_200),
  row('@x/auth (everything)', 'packages/auth/dist/index.js', '*', 12_000), // +300 B: the memory store holds two-phase sends (sending, inspect, release) and sweeps every duration (docs/decisions.md, "Idempotency keys in two phases")
  row('@x/auth/protocol (everything)', 'packages/auth/dist/protocol.js', '*', 6_300),
  row('@x/auth/node', 'packages/auth/dist/node.js', '*', 520, node),
  row('@x/service (status codes and states)', 'packages/service/dist/index.js', '*', 2_000),
  row('@x/service/failures', 'packages/service/dist/failures.js', '*', 1_600),
  row('@x/service/request (value lists, analyzeMessage)', 'packages/service/dist/request.js', '*', 700),
  row('@x/service/hosts', 'packages/service/dist/hosts.js', '*', 260),
  row('@x/client: createClient only', 'packages/client/dist/index.js', '{ createClient }', 21_100),
  row('@x/client (everything, with @x/auth)', 'packages/client/dist/index.js', '*', 23_300),
  row('@x/client/node', 'packages/client/dist/node.js', '*', 12_800, node),
  row('@x/client/idempotency (alone)', 'packages/client/dist/idempotency.js', '*', 10_800), // +1.9 KB: keyed fingerprint (HMAC), two phases with a renewed lease, inspect and release, messages that say what works (docs/decisions.md, "Idempotency keys in two phases")
  row('@x/client/volume (everything)', 'packages/client/dist/volume.js', '*', 7_900), // new: sendMany, the memory rate limit and spend stores, createSpendCap (docs/decisions.md, "Sending at volume")
  row('@x/client/volume: sendMany only', 'packages/client/dist/volume.js', '{ sendMany }', 6_100),
  row('@x/client/otel (@opentelemetry/api outside)', 'packages/client/dist/otel.js', '*', 2_200, without(['@opentelemetry/api'])), // +600 B: paths templated whatever the spelling, the HTTP client conventions and http.client.request.duration (docs/decisions.md, "Tracing by the OpenTelemetry HTTP client conventions")
  row('@x/webhooks (everything, with @x/auth)', 'packages/webhooks/dist/index.js', '*', 8_900),
  row('@x/webhooks/adapter (everything)', 'packages/webhooks/dist/adapter.js', '*', 10_350), // +50 B: verifyRequest reads a server's Map of headers without a copy (docs/decisions.md, "Size budgets")
  row('@x/webhooks/router (everything)', 'packages/webhooks/dist/router.js', '*', 2_800), // +400 B: the table of event names on() checks, unhandled callbacks reported (docs/decisions.md, "The router refuses")
  row('@x/webhooks/otel (@opentelemetry/api outside)', 'packages/webhooks/dist/otel.js', '*', 2_100, without(['@opentelemetry/api'])), // +550 B: the bounded sendSpan lookup and its refused option (WebhookError, shared with @x/webhooks in a receiver)
  row('@x/webhooks/queue', 'packages/webhooks/dist/queue.js', '*', 4_500), // the callback's identity (SHA-256 of noble) and the webhooks error; only those who queue import it
  row('@x/webhooks/testing', 'packages/webhooks/dist/testing.js', '*', 4_000),
  row('@x/webhooks/node', 'packages/webhooks/dist/node.js', '*', 4_200, node),
  row('@x/otp: createGuard only', 'packages/otp/dist/index.js', '{ createGuard }', 42_000), // numbers read with libphonenumber-js (min metadata), addresses with ipaddr.js (docs/decisions.md, "@x/otp: one identity per real thing")
  row('@x/otp (everything, @x/client outside)', 'packages/otp/dist/index.js', '*', 47_500, without(['@x/client'])),
  row('@x/otp/phone (libphonenumber-js min)', 'packages/otp/dist/phone.js', '*', 29_800),
  row('@x/otp/redis', 'packages/otp/dist/redis.js', '*', 5_800),
  row('@x/emulator/msw (msw outside)', 'packages/emulator/dist/msw.js', '*', 1_400, without(['msw'])), // +200 B: every spelling of a service host (case, trailing dot), operations not emulated refused (docs/decisions.md, "The emulator under misuse")
  row('@x/emulator/vitest (the emulator with it)', 'packages/emulator/dist/vitest.js', '*', 122_000), // new this wave: the whole emulator (inspector, callback chaos, scripts, saved state); +800 B: idle and waitFor on real time, Basic for callback URLs with credentials, composed chaos rules, @x/auth's growth; +3.2 KB: the OpenAPI document's request schemas built from the validation's rules, an operationId per operation, the rate fault
  row('@x/emulator/jest (the emulator with it)', 'packages/emulator/dist/jest.js', '*', 122_000),
  row('@x/otp/verify-api (@x/client outside)', 'packages/otp/dist/verify-api.js', '*', 770, without(['@x/client'])),
];
