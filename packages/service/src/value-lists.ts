// Value lists the service documents (service.md §3, service.md §6.2), one place each; each type is read
// from its list, so the two cannot drift apart.

/** `message_type` of Messaging, SMS Verify and Voice: one-time password, alert/reminder/notification, marketing. */
export const MESSAGE_TYPES = ['OTP', 'ARN', 'MKT'] as const;
/** One of {@link MESSAGE_TYPES}. */
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** `account_lifecycle_event`: the point in the account's life the request is made at. */
export const ACCOUNT_LIFECYCLE_EVENTS = ['create', 'sign-in', 'transact', 'update', 'delete'] as const;
/** One of {@link ACCOUNT_LIFECYCLE_EVENTS}. */
export type AccountLifecycleEvent = (typeof ACCOUNT_LIFECYCLE_EVENTS)[number];

/** `ucid`: the use case of a PhoneID, Voice Verify or Bulk SMS request. */
export const USE_CASE_CODES = ['ATCK', 'BACF', 'BACS', 'CHBK', 'CLDR', 'LEAD', 'OTHR', 'PWRT', 'RESV', 'RXPF', 'SHIP', 'THEF', 'TRVF', 'UNKN'] as const;
/** One of {@link USE_CASE_CODES}. */
export type UseCaseCode = (typeof USE_CASE_CODES)[number];
