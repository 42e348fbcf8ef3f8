// Node's built-in modules the client uses, read with process.getBuiltinModule: the module objects
// themselves, as require() returns them (the objects request mocks patch: connect.ts calls
// `http.request` through them at each request), without the ESM facade an `import` of a built-in
// builds on first use. That facade reads every export (node:crypto's `webcrypto` among them) and
// cost about 3 ms of an `import` cold start (issue 20).
export const http = process.getBuiltinModule('node:http');
export const https = process.getBuiltinModule('node:https');
export const { isIP } = process.getBuiltinModule('node:net');
export const { checkServerIdentity } = process.getBuiltinModule('node:tls');
