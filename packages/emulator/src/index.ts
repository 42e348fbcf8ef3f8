/**
 * A local emulator of the service: an in-process, web-standard fetch handler.
 *
 * @packageDocumentation
 * @module @x/emulator
 */
export { createEmulator, DEFAULT_CUSTOMER } from './emulator.js';
export type { Emulator, EmulatorOptions, EmulatorEnv, Customer, OutboxMessage, InboundSms, InboundResult } from './emulator.js';
export type { InboundPayload } from './inbound.js';
export type { OutboxChannel } from './outbox.js';
export type { OutboxFilter } from './outbox.js';
export type { Logger } from './logger.js';
export type { CallbackAttempt, CallbackOptions, CallbackView } from './callbacks.js';
export type { JournalEntry, JournalFilter, JournalVerdict, StatusClass } from './journal.js';
export type { TransactionFilter, TransactionView } from './transactions.js';
export type { ClockView, EmulatorEvent, EmulatorEventListener, EmulatorEventType } from './events.js';
export type { CallbackFilter, TransactionWait, WaitOptions } from './wait.js';
export { FINAL_STATUS } from './codes.js';
export { Faults } from './faults.js';
export { EmulatorError, FaultRuleError, InboundError } from './errors.js';
export type { EmulatorErrorCode } from './errors.js';
export type { Fault, FaultRule, FaultType } from './faults.js';
export { FAULT_STATUSES, FAULT_TYPES, HTML_FAULT_STATUSES } from './faults.js';
export { TEST_NUMBERS } from './numbers.js';
export { RISK_SCALE } from './risk.js';
export { AUTH_CODES, ERROR_TEXT, STATUS_TEXT } from './codes.js';
