// Voice Verify: POST /v1/verify/call (service.md §6.2). A call that speaks a code; its
// status and the check of the code go through GET /v1/verify/{reference_id}, as for SMS Verify.
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { randomDigits } from '../service/ids.js';
import { outcomeOf } from '../service/numbers.js';
import { reply } from '../service/respond.js';
import { validateVoiceVerify } from '../service/validate.js';
import { allow, type ServiceApp, validParams } from './service.js';
import { render, TEMPLATES, verifyStatusBody } from './verify-shared.js';

/** Length of a code the emulator makes (current guide: 7 digits; the 2019 copy said 5). */
export const VOICE_CODE_LENGTH = 7;

export function voiceVerifyRoutes(app: ServiceApp, ctx: EmulatorContext, family: ErrorFamily): void {
  app.post('/call', (c) => {
    const p = validParams(c, family, validateVoiceVerify);
    if (p instanceof Response) return p;
    const customer = c.get('customer');
    const outcome = outcomeOf(p.phone_number!);
    const action = p.call_forward_action?.toUpperCase() as 'BLOCK' | 'FLAG' | undefined;
    // A forwarded line with `block`: the call is aborted (130, service.md §1); `flag` only marks it.
    const callForwarding = action ? { action, call_forward: outcome.forwarded ? ('FORWARDED' as const) : ('NOT_FORWARDED' as const) } : undefined;
    const final = action === 'BLOCK' && outcome.forwarded ? 130 : outcome.voice;
    const code = p.verify_code ?? randomDigits(VOICE_CODE_LENGTH);
    // `tts_message` (reference, official SDKs); `template` is the name one guide example uses.
    const template = p.tts_message ?? p.template ?? TEMPLATES[p.language ?? 'en-US'] ?? TEMPLATES['en-US']!;
    const tx = ctx.transactions.create('verify', customer, p, {
      initial: 103,
      final,
      delayMs: ctx.settings.callDelayMs,
      verify: { channel: 'call', code, state: 'UNKNOWN', entered: '', attempts: 0 },
      voice: { callerId: p.caller_id ?? null, ...(callForwarding ? { callForwarding } : {}) },
    });
    const spoken = p.prompt_message ? `${p.prompt_message} ${render(template, code)}` : render(template, code);
    ctx.outbox.add({ referenceId: tx.referenceId, customerId: customer.customerId, channel: 'voice', product: 'verify', phoneNumber: tx.phoneNumber, text: spoken, code });
    return reply(c, 200, verifyStatusBody(tx));
  });
  // Before GET /:id, so that GET /v1/verify/call is a 405, not a status request for reference id "call".
  allow(app, family, '/call', 'POST');
}
