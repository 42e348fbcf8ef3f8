// The risk gate: a decision on the service's Score, Intelligence or PhoneID answer about a number.

/** The fields of a Score, Intelligence or PhoneID answer the gate reads (`risk`: Score and Intelligence). */
export interface RiskAnswer {
  phone_type?: { code: string; description: string } | undefined;
  risk?: { recommendation: string; score?: number | undefined } | undefined;
  blocklisting?: { blocked: boolean } | undefined;
}

export interface RiskPolicy {
  /**
   * PhoneID line types (`phone_type.description`) refused. Default `['RESTRICTED_PREMIUM', 'INVALID']`;
   * add `'VOIP'` to refuse VOIP numbers.
   */
  blockLineTypes?: readonly string[] | undefined;
  /** Score and Intelligence recommendations refused. Default `['block']`. */
  blockRecommendations?: readonly string[] | undefined;
}

/** Why the gate refused a number, or undefined when it did not. */
export type RiskBlock = 'line_type' | 'recommendation' | 'blocklisted';

const LINE_TYPES = ['RESTRICTED_PREMIUM', 'INVALID'];
const RECOMMENDATIONS = ['block'];

/**
 * The risk gate on the service's answer about a number: refuses a number the service blocklists,
 * whose line type is in `blockLineTypes` (premium-rate and invalid by default; VOIP when you add
 * it), or whose Score recommendation is in `blockRecommendations` (`block` by default).
 *
 * @example
 * ```ts
 * import { createClient } from '@x/client';
 * import { riskBlock } from '@x/otp';
 *
 * const { data } = await createClient().score.lookup('15555550003', { accountLifecycleEvent: 'sign-in' });
 * const blocked = riskBlock(data, { blockLineTypes: ['RESTRICTED_PREMIUM', 'INVALID', 'VOIP'] }); // 'line_type' for a VOIP line
 * ```
 */
export function riskBlock(answer: RiskAnswer, policy: RiskPolicy = {}): RiskBlock | undefined {
  if (answer?.blocklisting?.blocked) return 'blocklisted';
  const lineType = answer?.phone_type?.description?.toUpperCase();
  if (lineType && (policy.blockLineTypes ?? LINE_TYPES).some((t) => t.toUpperCase() === lineType)) return 'line_type';
  const recommendation = answer?.risk?.recommendation;
  if (recommendation && (policy.blockRecommendations ?? RECOMMENDATIONS).includes(recommendation)) return 'recommendation';
  return undefined;
}
