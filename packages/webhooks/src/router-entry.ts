/**
 * A typed callback router (`createRouter().on('sms.delivered', handler)`) and the delivery-state
 * rule (`nextDeliveryState`): on its own entry, so that it costs nothing to those who do not use it.
 *
 * @packageDocumentation
 * @module @x/webhooks/router
 */
export { createRouter, createMemoryStateStore, callbackEvent } from './router.js';
export type { CallbackRouter, CallbackEvents, CallbackEvent, DeliveryStateStore, RouteOutcome, RouterOptions, UnhandledCallback } from './router.js';
export { nextDeliveryState, deliveryStateOf, parseUpdatedOn } from './delivery-state.js';
export type { DeliveryState } from './delivery-state.js';
// The types these names use (the main entry has them too).
export type { CallbackPayload } from './types.js';
