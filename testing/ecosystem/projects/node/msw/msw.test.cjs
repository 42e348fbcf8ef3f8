// msw 2 setupServer in a CommonJS project: msw's and the client's require builds.
const { after, before, test } = require('node:test');
const { http, HttpResponse, passthrough } = require('msw');
const { setupServer } = require('msw/node');
const { createClient } = require('@x/client');
const { mswCases } = require('../shared/msw-cases.cjs');

mswCases({ test, before, after, label: 'CommonJS' }, { setupServer, http, HttpResponse, passthrough }, { createClient });
