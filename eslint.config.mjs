// Lint: keeps the portable packages pure (no node:* imports, no Buffer, no process),
// so they run unchanged in Node, Deno, Bun, browsers and edge workers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PURE = ['packages/service/src/**/*.ts', 'packages/auth/src/**/*.ts', 'packages/client/src/**/*.ts', 'packages/webhooks/src/**/*.ts', 'packages/hono/src/**/*.ts', 'packages/otp/src/**/*.ts', 'packages/emulator/src/**/*.ts'];
// Node-only entry points of otherwise portable packages (never imported by the portable code).
const NODE_ENTRIES = ['packages/auth/src/node/**', 'packages/client/src/node/**', 'packages/webhooks/src/node/**', 'packages/emulator/src/node.ts', 'packages/emulator/src/cli.ts', 'packages/emulator/src/cli/**'];
// Public APIs of dependencies only: no `_`-prefixed import from a package (noble's `_SHA256`, `_HMAC`; a
// namespace import of a package counts, as it reaches them too) and no call
// of a `_`-prefixed method (`_cloneInto`) anywhere.
const PRIVATE_IMPORT = { regex: '^(?!@x/)[^.#]', importNamePattern: '^_', message: 'Import only the public API of a dependency (no _-prefixed names).' };
const PRIVATE_CALL = { selector: 'CallExpression > MemberExpression.callee[property.name=/^_/]', message: 'Call only public methods of a dependency (no _-prefixed methods).' };

export default tseslint.config(
  // Also the temporary files builds write and delete while the lint task runs beside them in the
  // task graph (tsup's bundled config, Vite's timestamped config): eslint failed with ENOENT once.
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '.tools/**', '.ci-out/**', 'docs/snippets/.work*/**', '.scratch/**', '**/tsup.config.bundled_*', '**/*.timestamp-*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // One exception: the packages above @x/service re-export its vocabulary whole, so that each
      // name is declared once and no list of its names is kept by hand (ARCHITECTURE.md).
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration:not([source.value=/^@x\\/service(\\/failures|\\/request)?$/])', message: 'Use explicit named exports (export * only re-exports @x/service).' }, PRIVATE_CALL],
      'no-restricted-imports': ['error', { patterns: [PRIVATE_IMPORT] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'scripts/**', 'bench/**', 'demo/**', '**/test/**', 'testing/**', '**/*.config.ts'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', btoa: 'readonly', atob: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', fetch: 'readonly', Buffer: 'readonly', performance: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', AbortController: 'readonly', crypto: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', structuredClone: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: PURE,
    ignores: NODE_ENTRIES,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*'], message: 'Portable packages must not import node:* modules.' }, PRIVATE_IMPORT],
        paths: ['buffer', 'crypto', 'fs', 'http', 'https', 'net', 'os', 'path', 'stream', 'url', 'util', 'events', 'zlib'].map((name) => ({ name, message: 'Portable packages must not import Node built-ins.' })) }],
      'no-restricted-globals': ['error',
        { name: 'Buffer', message: 'Use Uint8Array: Buffer does not exist in browsers, Deno or workers.' },
        { name: 'process', message: 'Portable packages must not read process.' },
        { name: 'require', message: 'ESM only in sources.' }],
    },
  },
  {
    // The inspector's browser code: every value goes into the page as text (textContent, text nodes,
    // setAttribute), never as markup.
    files: ['packages/emulator/src/inspector/app/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'write', 'writeln', 'createContextualFragment', 'setHTMLUnsafe'].map((property) => ({ property, message: 'The inspector puts values in as text: build elements with h() (app/dom.ts).' }))],
    },
  },
);
