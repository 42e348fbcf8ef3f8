import { hash } from './hash.js';
import { outcomeOf } from './numbers.js';

export interface Risk {
  level: 'low' | 'medium-low' | 'medium' | 'medium-high' | 'high';
  recommendation: 'allow' | 'flag' | 'block';
  score: number;
}

/** The current risk scale (service.md §7.2, D-RISKCL): score ranges to level and recommendation. */
export const RISK_SCALE: ReadonlyArray<{ max: number; level: Risk['level']; recommendation: Risk['recommendation'] }> = [
  { max: 200, level: 'low', recommendation: 'allow' },
  { max: 400, level: 'medium-low', recommendation: 'allow' },
  { max: 600, level: 'medium', recommendation: 'flag' },
  { max: 800, level: 'medium-high', recommendation: 'block' },
  { max: 1000, level: 'high', recommendation: 'block' },
];

/** The risk of a number (Score, Intelligence): a scripted score, the test number's score, else a low one (100-179) derived from the number. */
export function riskOf(phoneNumber: string, scripted?: number): Risk {
  return riskOfScore(scripted ?? outcomeOf(phoneNumber).risk ?? 100 + (hash(phoneNumber) % 80));
}

/** Level and recommendation of a score (1 to 1000), from the scale. */
export function riskOfScore(score: number): Risk {
  const band = RISK_SCALE.find((b) => score <= b.max)!;
  return { level: band.level, recommendation: band.recommendation, score };
}
