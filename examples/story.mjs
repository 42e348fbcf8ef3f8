// The user's side of every example's one command, written once. Against an app that serves the
// examples' routes (POST /verifications, POST /verifications/:id/check, GET /verifications/:id,
// POST /callbacks), it asks for a code, reads it on the "phone" (the emulator's outbox), types it,
// waits until the app has received and verified the signed delivery report, and sends a forged
// callback, printing each step. Plain JavaScript: Node, Bun, Deno and the Worker's runner import it
// as it is. Each example's `main` starts the emulator and the app, then calls `playTheUser`.

/**
 * Plays the user against the app at `appUrl`; throws with the reason when a step misbehaves.
 *
 * @param {object} options
 * @param {string} options.appUrl Where the app listens (http://127.0.0.1:port).
 * @param {string | { outbox: { latest(phoneNumber: string): { text: string, code?: string } | undefined } }} options.emulator
 *   The emulator: its URL (the outbox is read over its control routes), or the in-process emulator.
 * @param {string} options.customerId The account the forged callback pretends to come from.
 * @param {string} [options.phoneNumber] The user's phone number.
 */
export async function playTheUser({ appUrl, emulator, customerId, phoneNumber = '15555550100' }) {
  const call = async (method, path, body) => {
    const response = await fetch(`${appUrl}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };

  const { referenceId } = await call('POST', '/verifications', { phoneNumber });
  console.log(`1. The user asks for a code: verification ${referenceId} sent by SMS`);

  const sms = typeof emulator === 'string'
    ? (await (await fetch(`${emulator}/_emulator/outbox?phone_number=${phoneNumber}`)).json()).messages.at(-1)
    : emulator.outbox.latest(phoneNumber);
  if (!sms?.code) throw new Error('nothing reached the phone');
  console.log(`2. Their phone receives "${sms.text}"`);

  const { codeState } = await call('POST', `/verifications/${referenceId}/check`, { code: sms.code });
  console.log(`3. They type ${sms.code}: ${codeState}`);
  if (codeState !== 'VALID') throw new Error(`the right code was ${codeState}`);

  let delivery = null;
  while (!delivery) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    ({ delivery } = await call('GET', `/verifications/${referenceId}`));
  }
  console.log(`4. The service's callback, signature verified (${delivery.header} header): ${delivery.status?.code} "${delivery.status?.description}", code ${delivery.codeState}`);

  const forged = await fetch(`${appUrl}/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `TSA ${customerId}:Zm9yZ2VkIHNpZ25hdHVyZQ==` },
    body: JSON.stringify({ reference_id: referenceId, status: { code: 200, description: 'Delivered to handset', updated_on: new Date().toISOString() }, errors: [], sub_resource: 'sms' }),
  });
  console.log(`5. A forged callback is refused: ${forged.status} ${await forged.text()}`);
  if (forged.status !== 401) throw new Error(`a forged callback got ${forged.status}, not 401`);

  console.log('Done: verified by SMS, callback received and verified.');
}
