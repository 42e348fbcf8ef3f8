// msw 2 setupServer in an ESM project: msw's and the client's import builds.
import { after, before, test } from 'node:test';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { createClient } from '@x/client';
import { mswCases } from '../shared/msw-cases.cjs';

mswCases({ test, before, after, label: 'ESM' }, { setupServer, http, HttpResponse, passthrough }, { createClient });
