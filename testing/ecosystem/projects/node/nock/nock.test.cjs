// nock 14 in a CommonJS project: the client's require build.
const { after, before, test } = require('node:test');
const nock = require('nock');
const { createClient } = require('@x/client');
const { nockCases } = require('../shared/nock-cases.cjs');

nockCases({ test, before, after, label: 'CommonJS' }, nock, { createClient });
