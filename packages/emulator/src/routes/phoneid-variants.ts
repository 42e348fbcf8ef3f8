// The PhoneID variants on GET (service.md §4.2): standard, live and the legacy
// number deactivation. Unlike POST /v1/phoneid they answer in the negative family (errors[] with
// status 500/501), as the service's fixtures show.
import { describe } from '../service/codes.js';
import type { EmulatorContext } from '../state/context.js';
import type { ErrorFamily } from '../service/families.js';
import { randomHex } from '../service/ids.js';
import { outcomeOf } from '../service/numbers.js';
import { phoneIdOf } from '../service/phoneid.js';
import { notePhones } from '../control/request-record.js';
import { reply } from '../service/respond.js';
import { USE_CASE_CODES } from '@x/service/request';
import { oneOf, PHONE } from '../service/validate.js';
import { allow, type ProductModule, type ServiceContext } from './service.js';

type Variant = 'standard' | 'live' | 'number_deactivation';

/** Whether `ucid` must be sent: the Node SDK omits it for live, every SDK sends it for number deactivation. */
const UCID_REQUIRED: Record<Variant, boolean> = { standard: false, live: false, number_deactivation: true };

/** PhoneID Live coverage (E-PIDLIVE): US and UK every line, Canada landlines only, elsewhere mobiles only. */
function liveCovered(iso2: string | null | undefined, type: string): boolean {
  if (type === 'INVALID') return false;
  if (iso2 === 'US' || iso2 === 'GB') return true;
  if (iso2 === 'CA') return type === 'FIXED_LINE';
  return type === 'MOBILE' || type === 'PREPAID';
}

function answer(c: ServiceContext, ctx: EmulatorContext, family: ErrorFamily, variant: Variant): Response {
  const phone = c.req.param('phone') ?? '';
  notePhones(c, [phone.slice(0, 128)]);
  if (!PHONE.test(phone)) return family.param(c, { positive: 11000, negative: -10001, description: `phone_number Parameter: ${phone.slice(0, 32)}` });
  const ucid = c.req.query('ucid');
  if (ucid === undefined && UCID_REQUIRED[variant]) return family.param(c, { positive: 12000, negative: -10001, description: `ucid Parameter: required, one of ${USE_CASE_CODES.join(', ')}` });
  if (ucid !== undefined && !oneOf(USE_CASE_CODES, ucid)) return family.param(c, { positive: 11000, negative: -10001, description: `ucid Parameter: ${ucid.slice(0, 16)}` });
  const now = ctx.now();
  const { body, country } = phoneIdOf(phone, { now });
  const outcome = outcomeOf(phone);
  const errors: Array<{ code: number; description: string }> = [];
  let partial = !country;
  const extra: Record<string, unknown> = {};
  if (variant === 'live') {
    if (liveCovered(country?.iso2, outcome.phoneType.description)) {
      extra.live = outcome.live ?? { subscriber_status: 'ACTIVE', device_status: 'REACHABLE', roaming: 'NOT_ROAMING', roaming_country: null, roaming_country_iso2: null };
    } else {
      extra.live = { subscriber_status: null, device_status: null, roaming: null, roaming_country: null, roaming_country_iso2: null };
      errors.push({ code: -60001, description: describe(-60001) });
      partial = true;
    }
  }
  if (variant === 'number_deactivation') {
    const deactivated = outcome.recycled ? new Date(now - 30 * 86_400_000).toISOString().slice(0, 10) : null;
    extra.number_deactivation = { number: phone, carrier_name: (body.carrier as { name: string | null }).name, last_deactivated: deactivated, tracking_since: '2016-01-01' };
  }
  return reply(c, 200, {
    reference_id: randomHex(16),
    resource_uri: null,
    sub_resource: variant,
    errors,
    status: ctx.status(partial ? 301 : 300, now),
    ...body,
    ...extra,
  });
}

const variant = (name: Variant): ProductModule => ({
  path: `/v1/phoneid/${name}`,
  family: 'negative',
  routes(app, ctx, family) {
    app.get('/:phone', (c) => answer(c, ctx, family, name));
    allow(app, family, '/:phone{[+0-9]+}', 'GET');
  },
});

/** GET /v1/phoneid/standard/{phone_number} (legacy, no current documentation). */
export const phoneidStandard = variant('standard');
/** GET /v1/phoneid/live/{phone_number}?ucid=: subscriber, device and roaming status. */
export const phoneidLive = variant('live');
/** GET /v1/phoneid/number_deactivation/{phone_number}?ucid= (deprecated by the service). */
export const phoneidDeactivation = variant('number_deactivation');
