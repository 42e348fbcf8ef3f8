// Locales as browsers and users send them, read into the service's `xx-XX` form.

/** The region a language's predefined message is usually asked in, for a locale given without one. */
const REGION: Readonly<Record<string, string>> = {
  en: 'US', fr: 'FR', de: 'DE', es: 'ES', it: 'IT', pt: 'BR', nl: 'NL', sv: 'SE', da: 'DK', nb: 'NO', fi: 'FI', pl: 'PL',
  cs: 'CZ', hu: 'HU', ro: 'RO', el: 'GR', tr: 'TR', ru: 'RU', uk: 'UA', ar: 'SA', he: 'IL', hi: 'IN', ja: 'JP', ko: 'KR',
  zh: 'CN', th: 'TH', vi: 'VN', id: 'ID', ms: 'MY',
};

/**
 * `en-GB` from `en-GB`, `en_gb` or `EN-gb`; `en-US` from `en` (a language with a usual region);
 * undefined for what is not a locale or a language without a known region.
 */
export function normalLocale(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i.exec(value.trim());
  if (!match) return undefined;
  const language = match[1]!.toLowerCase();
  const region = match[2]?.toUpperCase() ?? REGION[language];
  return region ? `${language}-${region}` : undefined;
}
