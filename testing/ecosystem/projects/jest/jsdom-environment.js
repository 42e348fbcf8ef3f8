// jest-environment-jsdom as it is, plus a handle on Node's web globals under a name no library
// reads (`nodeWebGlobals`), so that a test can install them itself, after its imports.
const { TestEnvironment } = require('jest-environment-jsdom');

module.exports = class JsdomWithNodeWebGlobals extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const { fetch, Request, Response, Headers, TextEncoder, TextDecoder, ReadableStream, AbortController, AbortSignal } = globalThis;
    this.global.nodeWebGlobals = { fetch, Request, Response, Headers, TextEncoder, TextDecoder, ReadableStream, AbortController, AbortSignal };
  }
};
