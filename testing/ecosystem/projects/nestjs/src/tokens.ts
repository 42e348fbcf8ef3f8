/** The injection token of the account's credentials (customer id and API key). */
export const CALLBACK_CREDENTIALS = Symbol('callback credentials');
