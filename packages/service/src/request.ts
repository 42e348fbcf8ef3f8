/**
 * What a request carries: the value lists of its parameters, and what an SMS text costs before it
 * is sent (encoding, units, parts, the characters that forced UCS-2). `@x/client` re-exports it.
 *
 * @packageDocumentation
 * @module @x/service/request
 */
export { MESSAGE_TYPES, ACCOUNT_LIFECYCLE_EVENTS, USE_CASE_CODES } from './value-lists.js';
export type { MessageType, AccountLifecycleEvent, UseCaseCode } from './value-lists.js';
export { MESSAGE_ENCODINGS, analyzeMessage } from './message.js';
export type { MessageEncoding, MessageAnalysis, NonGsmCharacter } from './message.js';
