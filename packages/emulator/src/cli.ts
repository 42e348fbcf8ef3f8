import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEFAULT_CUSTOMER, type Customer } from './emulator.js';
import { EmulatorError } from './errors.js';
import { startEmulator } from './node.js';
import { TEST_NUMBERS } from './numbers.js';

const HELP = `x-emulator: a local emulator of the messaging and verification service

Usage: x-emulator [options]

  -p, --port <n>            port on 127.0.0.1 (default 4010; 0 for any free port)
      --host <addr>         address to listen on (default 127.0.0.1). Any other address
                            makes the control routes require a token (printed at start)
      --control-token <t>   require "Authorization: Bearer <t>" on the control routes
  -c, --customer <id:key>   an account to accept (repeatable); default: the built-in test account
      --callback-url <url>  where signed callbacks go (for every customer)
      --delivery-delay <ms> time to the final SMS / call status (default 1000)
      --tls-key <file>      serve HTTPS with this PEM key ...
      --tls-cert <file>     ... and this PEM certificate
  -h, --help                this text

Control routes: GET /_emulator/outbox?phone_number=, GET /_emulator/callbacks,
GET|POST|DELETE /_emulator/faults, POST /_emulator/inbound (an inbound SMS to
your callback URL: {"from","to","text"}), POST /_emulator/reset. They answer only requests
addressed to a loopback host (localhost, 127.0.0.1, [::1]) and no web page of another
origin; with a control token, only requests that carry it.

Test numbers (last four digits):
${Object.entries(TEST_NUMBERS).map(([suffix, o]) => `  ...${suffix}  ${o.meaning}`).join('\n')}
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string', short: 'p', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'control-token': { type: 'string' },
    customer: { type: 'string', short: 'c', multiple: true },
    'callback-url': { type: 'string' },
    'delivery-delay': { type: 'string' },
    'tls-key': { type: 'string' },
    'tls-cert': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const callbackUrl = values['callback-url'];
const customers: Customer[] = (values.customer ?? [`${DEFAULT_CUSTOMER.customerId}:${DEFAULT_CUSTOMER.apiKey}`]).map((pair) => {
  const colon = pair.indexOf(':');
  if (colon <= 0) {
    console.error(`--customer takes "<customer id>:<api key>"; got something without a colon.`);
    process.exit(2);
  }
  return { customerId: pair.slice(0, colon), apiKey: pair.slice(colon + 1), ...(callbackUrl ? { callbackUrl } : {}) };
});
if ((values['tls-key'] === undefined) !== (values['tls-cert'] === undefined)) {
  console.error('--tls-key and --tls-cert go together.');
  process.exit(2);
}

const running = await startEmulator({
  port: Number(values.port),
  hostname: values.host,
  ...(values['control-token'] !== undefined ? { controlToken: values['control-token'] } : {}),
  customers,
  ...(values['delivery-delay'] ? { deliveryDelayMs: Number(values['delivery-delay']) } : {}),
  ...(values['tls-key'] ? { tls: { key: readFileSync(values['tls-key']), cert: readFileSync(values['tls-cert']!) } } : {}),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(error instanceof EmulatorError ? 2 : 1);
});

console.log(`x-emulator listening on ${running.url}`);
for (const c of customers) console.log(`  customer id: ${c.customerId}\n  api key:     ${c.apiKey}`);
if (callbackUrl) console.log(`  callbacks:   ${callbackUrl}`);
// startEmulator has logged a warning (stderr) when the address is not loopback.
if (running.controlToken !== undefined) console.log(`  control token: ${running.controlToken}  (send "Authorization: Bearer <token>" to /_emulator/*)`);
const stop = () => void running.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
