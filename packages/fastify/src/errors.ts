import { WebhookError } from '@x/webhooks';

/** What is missing when a route opts in without its options: the typed error, saying what to pass. */
export function missingOptions(mode: 'callback' | 'signed', route: string): WebhookError {
  return mode === 'callback'
    ? new WebhookError('missing_options', `@x/fastify: the route ${route} verifies callbacks, but the plugin was registered without them: register it with callbacks: { customerId, apiKey } (or take the route out of callbackRoutes / config.xCallback).`)
    : new WebhookError('missing_options', `@x/fastify: the route ${route} verifies signed requests, but the plugin was registered without them: register it with signedRequests: { credentials } (or take the route out of signedRoutes / config.xSignedRequest).`);
}
