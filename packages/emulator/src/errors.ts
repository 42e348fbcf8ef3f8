import { XError } from '@x/auth';

/**
 * Codes of the errors the emulator throws for misuse: a bad fault rule, option, inbound message,
 * clock move or status; a saved state or number script that does not check out; an unknown
 * transaction or callback; a `waitFor` that timed out; a port already in use (`startEmulator`); a
 * request for a host of the service that the msw handlers do not route, or for an operation the
 * emulator does not emulate (`@x/emulator/msw`).
 */
export type EmulatorErrorCode =
  | 'invalid_fault'
  | 'invalid_option'
  | 'invalid_inbound'
  | 'invalid_advance'
  | 'invalid_status'
  | 'unknown_transaction'
  | 'unknown_callback'
  | 'wait_timeout'
  | 'invalid_state'
  | 'invalid_script'
  | 'address_in_use'
  | 'unrouted_host'
  | 'not_emulated';

// The key of the brand XError reads (see @x/auth's errors.ts), so that instanceof holds across copies.
const BRAND: unique symbol = Symbol.for('@x/error.brand');

/** Base of every error the emulator throws (an `XError` of @x/auth). `code` is stable; the message says what to do. */
export class EmulatorError extends XError {
  static readonly [BRAND]: string = '@x/emulator/EmulatorError';
  override name = 'EmulatorError';
  declare readonly code: EmulatorErrorCode;

  constructor(code: EmulatorErrorCode, message: string) {
    super(code, message);
  }
}

/** A fault rule was refused; `field` names the first field at fault (`rule` for the whole value). Nothing was added. */
export class FaultRuleError extends EmulatorError {
  static override readonly [BRAND]: string = '@x/emulator/FaultRuleError';
  override name = 'FaultRuleError';
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid_fault', message);
    this.field = field;
  }
}

/** An inbound SMS was refused; `field` names the first field at fault. Nothing was sent. */
export class InboundError extends EmulatorError {
  static override readonly [BRAND]: string = '@x/emulator/InboundError';
  override name = 'InboundError';
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid_inbound', message);
    this.field = field;
  }
}

/**
 * A saved state (`invalid_state`) or number script (`invalid_script`) was refused; `field` is the
 * path of the first bad value (`state.transactions[3].status.code`, `numbers[0].steps[1].sms`), and
 * the message says what to put there. Nothing was changed.
 */
export class ShapeError extends EmulatorError {
  static override readonly [BRAND]: string = '@x/emulator/ShapeError';
  override name = 'ShapeError';
  readonly field: string;

  constructor(code: EmulatorErrorCode, field: string, message: string) {
    super(code, `${field}: ${message}`);
    this.field = field;
  }
}
