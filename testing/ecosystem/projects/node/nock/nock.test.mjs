// nock 14 in an ESM project: the client's import build.
import { after, before, test } from 'node:test';
import nock from 'nock';
import { createClient } from '@x/client';
import { nockCases } from '../shared/nock-cases.cjs';

nockCases({ test, before, after, label: 'ESM' }, nock, { createClient });
