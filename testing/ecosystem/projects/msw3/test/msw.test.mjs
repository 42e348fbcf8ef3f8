// msw 3 setupServer in an ESM project on Node 22: the cases msw 2 runs (projects/node), with msw 3's
// spelling of the option that fails an unhandled request (onUnhandledFrame).
import { after, before, test } from 'node:test';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { createClient } from '@x/client';
import { mswCases } from '../shared/msw-cases.cjs';

mswCases({ test, before, after, label: 'msw 3, ESM' }, { setupServer, http, HttpResponse, passthrough }, { createClient }, { onUnhandledFrame: 'error' });
