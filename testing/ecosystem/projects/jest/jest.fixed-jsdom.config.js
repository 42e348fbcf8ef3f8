// A front-end project's tests with the one line the client README gives for jsdom:
// `testEnvironment: 'jest-fixed-jsdom'`, jsdom with Node's fetch family, TextEncoder and streams.
// Nothing else: no setup file, no polyfill in the test.
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/test/jsdom-fixed.test.ts'],
};
