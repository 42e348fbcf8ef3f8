// Size budgets per entry point (size-limit with its esbuild preset): each entry's ESM build,
// bundled with its dependencies, minified and gzipped, as a user's bundler ships it. Measured from
// the built dist/ files (build first). `npx size-limit` prints the table; a row over its limit fails.
// Every budget is at least 10% above the entry's size when it was set, so that a change of a few
// bytes does not fail; testing/release/size.test.ts prints each row's headroom. Why: docs/decisions.md,
// "Size budgets".

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
  row('@x/auth: signRequest only', 'packages/auth/dist/index.js', '{ signRequest }', 5_500), // the design's cap for constrained runtimes, pinned by testing/release/size.test.ts: the one row with less than 10% headroom (docs/decisions.md, "Size budgets")
  row('@x/auth: sign + verify + replay store', 'packages/auth/dist/index.js', '{ signRequest, createSigner, verifyRequest, createMemoryReplayStore, basicAuthorization, callbackSignature }', 9_900),
  row('@x/auth (everything)', 'packages/auth/dist/index.js', '*', 13_500), // the memory store holds two-phase sends (docs/decisions.md, "Idempotency keys in two phases")
  row('@x/auth/protocol (everything)', 'packages/auth/dist/protocol.js', '*', 6_300),
  row('@x/auth/node', 'packages/auth/dist/node.js', '*', 520, node),
  row('@x/service (status codes and states)', 'packages/service/dist/index.js', '*', 2_200),
  row('@x/service/failures', 'packages/service/dist/failures.js', '*', 1_900),
  row('@x/service/request (value lists, analyzeMessage)', 'packages/service/dist/request.js', '*', 800),
  row('@x/service/hosts', 'packages/service/dist/hosts.js', '*', 280),
  row('@x/client: createClient only', 'packages/client/dist/index.js', '{ createClient }', 23_900),
  row('@x/client (everything, with @x/auth)', 'packages/client/dist/index.js', '*', 26_500),
  row('@x/client/node', 'packages/client/dist/node.js', '*', 12_800, node),
  row('@x/client/idempotency (alone)', 'packages/client/dist/idempotency.js', '*', 12_100), // keyed fingerprint, two phases with a renewed lease (docs/decisions.md, "Idempotency keys in two phases")
  row('@x/client/volume (everything)', 'packages/client/dist/volume.js', '*', 8_700), // sendMany, the memory rate limit and spend stores, createSpendCap (docs/decisions.md, "Sending at volume")
  row('@x/client/volume: sendMany only', 'packages/client/dist/volume.js', '{ sendMany }', 6_700),
  row('@x/client/otel (@opentelemetry/api outside)', 'packages/client/dist/otel.js', '*', 2_400, without(['@opentelemetry/api'])), // the HTTP client conventions (docs/decisions.md, "Tracing by the OpenTelemetry HTTP client conventions")
  row('@x/webhooks (everything, with @x/auth)', 'packages/webhooks/dist/index.js', '*', 10_200),
  row('@x/webhooks/adapter (everything)', 'packages/webhooks/dist/adapter.js', '*', 11_500), // docs/decisions.md, "Size budgets"
  row('@x/webhooks/router (everything)', 'packages/webhooks/dist/router.js', '*', 3_100), // the table of event names on() checks (docs/decisions.md, "The router refuses")
  row('@x/webhooks/otel (@opentelemetry/api outside)', 'packages/webhooks/dist/otel.js', '*', 2_300, without(['@opentelemetry/api'])), // the bounded sendSpan lookup and its WebhookError
  row('@x/webhooks/queue', 'packages/webhooks/dist/queue.js', '*', 4_500), // the callback's identity (SHA-256 of noble) and the webhooks error; only those who queue import it
  row('@x/webhooks/testing', 'packages/webhooks/dist/testing.js', '*', 4_600),
  row('@x/webhooks/node', 'packages/webhooks/dist/node.js', '*', 4_200, node),
  row('@x/otp: createGuard only', 'packages/otp/dist/index.js', '{ createGuard }', 42_000), // numbers read with libphonenumber-js (min metadata), addresses with ipaddr.js (docs/decisions.md, "@x/otp: one identity per real thing")
  row('@x/otp (everything, @x/client outside)', 'packages/otp/dist/index.js', '*', 47_600, without(['@x/client'])),
  row('@x/otp/phone (libphonenumber-js min)', 'packages/otp/dist/phone.js', '*', 32_200),
  row('@x/otp/redis', 'packages/otp/dist/redis.js', '*', 6_300),
  row('@x/emulator/msw (msw outside)', 'packages/emulator/dist/msw.js', '*', 1_600, without(['msw'])), // every spelling of a service host, operations not emulated refused (docs/decisions.md, "The emulator under misuse")
  row('@x/emulator/vitest (the emulator with it)', 'packages/emulator/dist/vitest.js', '*', 134_000), // the whole emulator: inspector, callback chaos, scripts, saved state, the OpenAPI document
  row('@x/emulator/jest (the emulator with it)', 'packages/emulator/dist/jest.js', '*', 134_000),
  row('@x/otp/verify-api (@x/client outside)', 'packages/otp/dist/verify-api.js', '*', 830, without(['@x/client'])),
];
