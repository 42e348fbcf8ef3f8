/**
 * A local emulator of the service: an in-process, web-standard fetch handler.
 *
 * @packageDocumentation
 * @module @x/emulator
 */
export { createEmulator, DEFAULT_CUSTOMER } from './emulator.js';
export type { Emulator, EmulatorOptions, EmulatorEnv, Customer, OutboxMessage, InboundSms, InboundResult, EmulatorSnapshot } from './emulator.js';
export type { SavedTransaction } from './state/store.js';
export { SNAPSHOT_LIMITS, SNAPSHOT_FORMAT } from './state/snapshot.js';
export type { InboundPayload } from './state/inbound.js';
export type { OutboxChannel } from './state/outbox.js';
export type { OutboxFilter } from './state/outbox.js';
export type { Logger } from './logger.js';
export type { CallbackAttempt, CallbackDeliveryOptions, CallbackView } from './state/callbacks.js';
export type { JournalEntry, JournalFilter, JournalVerdict, StatusClass } from './state/journal.js';
export type { TransactionFilter, TransactionView } from './state/transactions.js';
export type { ClockView, EmulatorEvent, EmulatorEventListener, EmulatorEventType } from './state/events.js';
export type { CallbackFilter, TransactionWait, WaitOptions } from './control/wait.js';
export type { IdleOptions } from './state/idle.js';
export { FINAL_STATUS } from './service/codes.js';
export { Faults } from './state/faults.js';
export { EmulatorError, FaultRuleError, InboundError, ShapeError } from './errors.js';
export type { EmulatorErrorCode } from './errors.js';
export type { Fault, FaultRule, FaultType, CallbackChaos, CallbackProduct, CallbackFaultRule, CallbackAbout } from './state/faults.js';
export { FAULT_STATUSES, FAULT_TYPES, HTML_FAULT_STATUSES, CALLBACK_CHAOS, CALLBACK_PRODUCTS } from './state/faults.js';
export { TEST_NUMBERS } from './service/numbers.js';
export { DEFAULT_NUMBER_RULES, PHONE_TYPES, parseNumberScript, parseNumberScripts, parseEmulatorConfig } from './state/scripts.js';
export type { NumberScript, ScriptStep, SmsStep, CallStep, PhoneIdStep, PhoneTypeName, DefaultNumberRule, EmulatorConfig } from './state/scripts.js';
export { RISK_SCALE } from './service/risk.js';
export { ERROR_TEXT, STATUS_TEXT } from './service/codes.js';
