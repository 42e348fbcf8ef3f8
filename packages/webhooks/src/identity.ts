import { sha256Hex } from '@x/auth/protocol';

// What identifies one event, per callback family of the service references. Two different events
// never share an identity: a family's fields are used only when all of them are present, and any
// other body (v2 voice events, unknown shapes, missing fields) is identified by its raw bytes.
//
//   sms, voice, call, mo_sms   [sub_resource, reference_id, status.code, status.updated_on]
//   + verify object            ... + verify.code_state, verify.code_entered
//   bulk_sms                   [sub_resource, reference_id, session_id, status.code, status.updated_on]
//   Verify API reports         ["verify_api", reference_id, state, updated_on]
//   v2 voice events            "voice_event:" + SHA-256 of the raw body
//   anything else              "sha256:" + SHA-256 of the raw body

type Json = Record<string, unknown>;

const STATUS_FAMILIES = new Set(['sms', 'voice', 'call', 'mo_sms', 'bulk_sms']);
const MAX_LENGTH = 512;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isCode = (value: unknown) => (typeof value === 'number' && Number.isFinite(value)) || isText(value);

function fieldsOf(p: Json): unknown[] | undefined {
  const ref = p.reference_id;
  if (!isText(ref)) return undefined;
  const status = p.status;
  if (isObject(status)) {
    const family = p.sub_resource;
    if (!isText(family) || !STATUS_FAMILIES.has(family) || !isCode(status.code) || !isText(status.updated_on)) return undefined;
    if (family === 'bulk_sms') return isText(p.session_id) ? [family, ref, p.session_id, status.code, status.updated_on] : undefined;
    const verify = p.verify;
    if (isObject(verify)) return [family, ref, status.code, status.updated_on, verify.code_state ?? null, verify.code_entered ?? null];
    return [family, ref, status.code, status.updated_on];
  }
  if (status === undefined && isText(p.state) && isText(p.updated_on)) return ['verify_api', ref, p.state, p.updated_on];
  return undefined;
}

/**
 * The de-duplication identity of a verified callback: its family's identifying fields (as a JSON
 * array), or the SHA-256 of the raw body when the body has no such fields. At most 512 characters
 * (longer identities are hashed). Pass the payload parsed from exactly these bytes.
 *
 * @example
 * ```ts
 * import { callbackIdentity } from '@x/webhooks';
 *
 * const body = '{"reference_id":"0123456789ABCDEF0123456789ABCDEF","status":{"code":200}}';
 * const key = callbackIdentity(JSON.parse(body), body); // the same for every retry of this update
 * ```
 */
export function callbackIdentity(payload: unknown, body: string | Uint8Array): string {
  const fields = isObject(payload) ? fieldsOf(payload) : undefined;
  if (!fields) {
    const voiceEvent = isObject(payload) && isText(payload.event) && payload.status === undefined;
    return `${voiceEvent ? 'voice_event' : 'sha256'}:${sha256Hex(body)}`;
  }
  const identity = JSON.stringify(fields);
  return identity.length > MAX_LENGTH ? `sha256:${sha256Hex(identity)}` : identity;
}
