// What SMS Verify and Voice Verify share: default messages, rendering, the status answer.
import { statusNow } from '../state/store.js';
import type { Transaction } from '../state/store.js';

/** Default message per `language`, for SMS and spoken; `$$CODE$$` is replaced by the code. */
export const TEMPLATES: Record<string, string> = {
  'en-US': 'Your code is $$CODE$$',
  'en-GB': 'Your code is $$CODE$$',
  'es-ES': 'Tu código es $$CODE$$',
  'fr-FR': 'Votre code est $$CODE$$',
  'de-DE': 'Ihr Code lautet $$CODE$$',
  'pt-BR': 'Seu código é $$CODE$$',
};

export const render = (template: string, code: string) => template.split('$$CODE$$').join(code);

/** The answer of GET /v1/verify/{id} for an SMS or a call. */
export function verifyStatusBody(tx: Transaction): Record<string, unknown> {
  const v = tx.verify!;
  const body: Record<string, unknown> = {
    reference_id: tx.referenceId,
    sub_resource: v.channel,
    errors: [],
    status: statusNow(tx),
    verify: { code_state: v.state, code_entered: v.entered },
  };
  if (v.channel === 'call') {
    body.voice = { caller_id: tx.voice?.callerId ?? null };
    if (tx.voice?.callForwarding) body.call_forwarding = tx.voice.callForwarding;
  }
  return body;
}
