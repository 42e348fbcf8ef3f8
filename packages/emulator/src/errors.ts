/** Codes of the errors the emulator throws for misuse. */
export type EmulatorErrorCode = 'invalid_fault' | 'invalid_option' | 'invalid_inbound';

/** Base of every error the emulator throws. `code` is stable; the message says what to do. */
export class EmulatorError extends Error {
  override name = 'EmulatorError';
  readonly code: EmulatorErrorCode;

  constructor(code: EmulatorErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** A fault rule was refused; `field` names the first field at fault (`rule` for the whole value). Nothing was added. */
export class FaultRuleError extends EmulatorError {
  override name = 'FaultRuleError';
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid_fault', message);
    this.field = field;
  }
}

/** An inbound SMS was refused; `field` names the first field at fault. Nothing was sent. */
export class InboundError extends EmulatorError {
  override name = 'InboundError';
  readonly field: string;

  constructor(field: string, message: string) {
    super('invalid_inbound', message);
    this.field = field;
  }
}
