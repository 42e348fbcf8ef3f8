// The same, in jsdom (a front-end project's tests): jest-environment-jsdom, whose window has no
// fetch, Request, Response or TextEncoder. jsdom-environment.js only hands the test node's own,
// to install after the imports (see test/jsdom.test.ts).
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: '<rootDir>/jsdom-environment.js',
  testMatch: ['<rootDir>/test/jsdom.test.ts'],
};
