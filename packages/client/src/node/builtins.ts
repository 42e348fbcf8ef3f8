// Node's built-in modules the client uses, read with process.getBuiltinModule when first needed: the
// module objects themselves, as require() returns them (the objects request mocks patch: connect.ts
// calls `http().request` through them at each request), without the ESM facade an `import` of a
// built-in builds (it reads every export; node:crypto's `webcrypto` among them).
//
// Read at first use, not at load: node:http, node:https, node:net and node:tls with the
// streams under them are most of an `import` + `createClient()` cold start, and a client that is
// created and never sends (a cold serverless instance answering from cache, a test) never needs them.
// The first request pays for them instead.
let httpModule: typeof import('node:http') | undefined;
let httpsModule: typeof import('node:https') | undefined;
export const http = () => (httpModule ??= process.getBuiltinModule('node:http'));
export const https = () => (httpsModule ??= process.getBuiltinModule('node:https'));
export const isIP = (input: string) => process.getBuiltinModule('node:net').isIP(input);
export const checkServerIdentity: typeof import('node:tls').checkServerIdentity = (host, cert) => process.getBuiltinModule('node:tls').checkServerIdentity(host, cert);
