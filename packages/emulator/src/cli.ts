// x-emulator: start an emulator (the default command), or trigger events in a running one.
import { TEST_NUMBERS } from './service/numbers.js';
import { UsageError } from './cli/args.js';
import { serve } from './cli/serve.js';
import { advance, chaos, DEFAULT_URL, inbound, resend, script, status } from './cli/triggers.js';

const HELP = `x-emulator: a local emulator of the messaging and verification service

Usage: x-emulator [serve] [options]        start an emulator
       x-emulator <trigger> [arguments]     act on a running one (at --url)

Options of serve:
  -p, --port <n>            port on 127.0.0.1 (default 4010; 0 for any free port)
      --host <addr>         address to listen on (default 127.0.0.1). Any other address
                            makes the control routes require a token (printed at start)
      --control-token <t>   require "Authorization: Bearer <t>" on the control routes
  -c, --customer <id:key>   an account to accept (repeatable); default: the built-in test account
      --callback-url <url>  where signed callbacks go (for every customer)
      --delivery-delay <ms> time to the final SMS / call status (default 1000)
      --journal-size <n>    requests the journal keeps (default 1000)
      --rate-limit <n>      answer 429 with Retry-After past n requests a second per customer
                            (a rate fault rule; remove it with DELETE /_emulator/faults)
      --cors                let web pages of any origin call the service routes
      --open                open the inspector in a browser
  -q, --quiet               no line per request and per callback
      --json                one JSON object per line (for tools)
      --config <file>       a seed file: {"numbers": [number scripts], "faults": [fault rules]},
                            checked field by field
      --state <file>        keep transactions, outbox, callbacks and journal in this file
                            across restarts (written before each answer; a file that is not
                            a saved state is refused and left as it is)
      --tls-key <file>      serve HTTPS with this PEM key ...
      --tls-cert <file>     ... and this PEM certificate
  -h, --help                this text

Triggers (each takes --url <base> (default ${DEFAULT_URL}, or $X_EMULATOR_URL),
--control-token <t> (or $X_EMULATOR_CONTROL_TOKEN) and --json):
  inbound --from <n> --to <n> --text <t> [--customer-id <id>] [--callback-url <url>]
                            an end user texts your number: a signed mo_sms callback
  status <reference id> <code>
                            give a transaction its final status now (e.g. 207), with its callback
  advance <duration>        move the emulator's clock (10m, 30s, 1h30m, 1500ms, 2d): deliveries
                            settle, codes expire, callback retries come due
  resend <callback id>      send a callback attempt's exact signed body again
  chaos <kind> [--copies n] [--delay 30s] [--number <digits>] [--product <p>] [--times n]
                            a callback fault: duplicate (n extra copies), reorder (the earlier
                            status after the final one), late (the earlier status --delay after
                            it), drop (the first attempt is lost); --product messaging, verify,
                            voice, bulk_sms, verify_api or inbound
  script <number | prefix*> <step>...
                            what a number does next, in order: sms:delivered, sms:undeliverable,
                            sms:<status>, call:answered, call:not_answered, call:busy (each with
                            an optional delay: sms:delivered:5s), phoneid:<TYPE>[:<risk>]

Control routes (/_emulator/*): journal, outbox, callbacks, transactions, clock, faults, numbers,
inbound, snapshot, reset, events (SSE), openapi.json (the OpenAPI document of everything the emulator serves), and
the inspector page at /_emulator/inspector. They answer only requests addressed to a loopback host
(localhost, 127.0.0.1, [::1]) and no web page of another origin; with a control token, only
requests that carry it.

Test numbers (last four digits; the default rules under number scripts):
${Object.entries(TEST_NUMBERS).map(([suffix, o]) => `  ...${suffix}  ${o.meaning}`).join('\n')}
`;

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = { inbound, status, advance, resend, chaos, script };

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  const help = () => void process.stdout.write(HELP);
  if (first === '--help' || first === '-h' || first === 'help') return help();
  if (first !== undefined && !first.startsWith('-')) {
    if (first === 'serve') return serve(rest, help);
    const command = COMMANDS[first];
    if (!command) throw new UsageError(`unknown command "${first.slice(0, 40)}": x-emulator [serve] [options], or a trigger: ${Object.keys(COMMANDS).join(', ')} (x-emulator --help)`);
    if (rest.includes('--help') || rest.includes('-h')) return help();
    return command(rest);
  }
  return serve(argv, help);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // One line, no stack: what went wrong and what to do (a RunError or any other failure: exit code 1).
  if (error instanceof UsageError) {
    process.stderr.write(`x-emulator: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`x-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
