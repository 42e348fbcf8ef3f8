export { createEmulator, DEFAULT_CUSTOMER } from './emulator.js';
export type { Emulator, EmulatorOptions, EmulatorEnv, Customer, OutboxMessage } from './emulator.js';
export type { OutboxFilter } from './outbox.js';
export type { Logger } from './logger.js';
export type { CallbackAttempt, CallbackOptions } from './callbacks.js';
export { Faults } from './faults.js';
export type { Fault, FaultRule } from './faults.js';
export { TEST_NUMBERS } from './numbers.js';
export { AUTH_CODES, STATUS_TEXT } from './codes.js';
