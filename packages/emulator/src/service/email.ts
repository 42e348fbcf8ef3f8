// Email Intelligence's answer (service.md §7.3), made deterministically from the
// address: lower case and the plus-tag removed when cleansed, a disposable domain and a gibberish
// local part raise the risk, the level and recommendation come from the risk scale.
import { hash } from './hash.js';
import { riskOfScore, type Risk } from './risk.js';

/** Domains the emulator treats as disposable (a test domain of its own and well-known throwaway services). */
export const DISPOSABLE_DOMAINS = ['disposable.example', 'mailinator.com', 'yopmail.com', '10minutemail.com', 'guerrillamail.com'];

/** The share (0 to 1, two decimals) of the local part's letters and digits in runs of 4 or more without a vowel. */
function gibberish(local: string): number {
  const chars = local.replace(/[^a-z0-9]/g, '');
  if (!chars) return 0;
  const runs = chars.match(/[^aeiouy]{4,}/g) ?? [];
  return Math.round((runs.join('').length / chars.length) * 100) / 100;
}

export interface EmailAssessment {
  email_address_details: {
    original: { email_address: string; is_valid: boolean };
    cleansed: { email_address: string; is_valid: boolean; username: string; domain: string };
    cleansing_details: { is_modified: boolean; gibberish_probability: number; tag: string | null };
    domain_details: { general_info: { registered_domain: string; tld: string; tld_type: 'general' | 'country-code'; is_disposable: boolean } };
  };
  intelligence_details: {
    risk: Risk;
    insights: { category: number[]; email_address: { activity: number[]; static: number[]; domain: number[] } };
  };
}

/** The assessment of a validated address (`local@domain`). */
export function assessEmail(address: string): EmailAssessment {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1).toLowerCase();
  const [username = '', tag] = address.slice(0, at).toLowerCase().split('+', 2);
  const cleansed = `${username}@${domain}`;
  const labels = domain.split('.');
  const tld = labels.length > 1 ? labels[labels.length - 1]! : '';
  const registered = labels.slice(-2).join('.');
  const disposable = DISPOSABLE_DOMAINS.includes(registered) || DISPOSABLE_DOMAINS.includes(domain);
  const valid = tld !== '' && username !== '';
  const probability = gibberish(username);
  const score = Math.min(1000, 100 + (hash(cleansed) % 80) + (disposable ? 700 : 0) + (valid ? 0 : 400) + Math.round(probability * 300));
  return {
    email_address_details: {
      original: { email_address: address, is_valid: valid },
      cleansed: { email_address: cleansed, is_valid: valid, username, domain },
      cleansing_details: { is_modified: cleansed !== address, gibberish_probability: probability, tag: tag ?? null },
      domain_details: { general_info: { registered_domain: registered, tld, tld_type: tld.length === 2 ? 'country-code' : 'general', is_disposable: disposable } },
    },
    intelligence_details: {
      risk: riskOfScore(score),
      // Reason codes: their meanings are not published, so the emulator names none.
      insights: { category: [], email_address: { activity: [], static: [], domain: [] } },
    },
  };
}
