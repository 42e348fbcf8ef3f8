// Value lists the service documents (ref §3, ref-next §1), one place each.
import type { AccountLifecycleEvent, MessageType, UseCaseCode } from './types.js';

export const MESSAGE_TYPES: readonly MessageType[] = ['OTP', 'ARN', 'MKT'];
export const LIFECYCLE_EVENTS: readonly AccountLifecycleEvent[] = ['create', 'sign-in', 'transact', 'update', 'delete'];
export const USE_CASE_CODES: readonly UseCaseCode[] = ['ATCK', 'BACF', 'BACS', 'CHBK', 'CLDR', 'LEAD', 'OTHR', 'PWRT', 'RESV', 'RXPF', 'SHIP', 'THEF', 'TRVF', 'UNKN'];
