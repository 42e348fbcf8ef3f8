// The Jest test of packages/emulator/TESTING.md (run.mjs writes it to guide/), with the
// configuration `nest new` writes: ts-jest, CommonJS, testEnvironment node.
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/guide/*.test.ts'],
};
