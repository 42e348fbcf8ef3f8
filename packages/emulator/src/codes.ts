/** Transaction status texts, as the service reference lists them. */
export const STATUS_TEXT: Record<number, string> = {
  100: 'Call answered',
  101: 'Not answered',
  103: 'Call in progress',
  104: 'Wrong/invalid phone number',
  107: 'Line busy',
  130: 'Call blocked by TeleSign',
  200: 'Delivered to handset',
  203: 'Delivered to gateway',
  207: 'Error delivering SMS to handset (reason unknown)',
  222: 'SMS not supported',
  230: 'Message blocked by TeleSign',
  290: 'Message in progress',
  300: 'Transaction successfully completed',
  500: 'Transaction not attempted',
  501: 'Not authorized',
  507: 'Invalid destination address',
};

/** Codes that will not change any more. */
export const INTERMEDIATE = new Set([103, 203, 290, 291, 292, 295]);

/** Where each verification failure maps to the service's codes (one table, in @x/auth). */
export { SERVICE_AUTH_CODES as AUTH_CODES } from '@x/auth';
