// msw 2 setupServer under Vitest (ESM): the client with default options must be intercepted.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, test } from 'vitest';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { createClient } from '@x/client';

const { mswCases } = createRequire(import.meta.url)('../shared/msw-cases.cjs');

mswCases({ test, before: beforeAll, after: afterAll, label: 'Vitest, ESM' }, { setupServer, http, HttpResponse, passthrough }, { createClient });
