// The configuration `nest new` writes (ts-jest, testEnvironment node), with no
// transformIgnorePatterns: node_modules are loaded as they are published.
/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/node.test.ts'],
};
