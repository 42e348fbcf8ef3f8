// SMS templates for one-time codes, with the WebOTP line and Android's SMS Retriever hash.
import { XError } from '@x/auth';
import { analyzeMessage } from '@x/client';

/** The sentence per language shipped: `{brand}` and `$$CODE$$` are replaced. All GSM-7. */
export const OTP_TEXTS: Readonly<Record<string, string>> = {
  en: 'Your {brand} code is $$CODE$$. Do not share it.',
  fr: 'Votre code {brand} est $$CODE$$. Ne le partagez pas.',
  de: 'Ihr {brand}-Code lautet $$CODE$$. Geben Sie ihn nicht weiter.',
  es: 'Tu codigo de {brand} es $$CODE$$. No lo compartas.',
  it: 'Il tuo codice {brand} è $$CODE$$. Non condividerlo.',
  pt: 'Seu codigo {brand} e $$CODE$$. Nao o compartilhe.',
  nl: 'Je {brand}-code is $$CODE$$. Deel hem niet.',
};

export interface OtpTemplateOptions {
  /** `xx-XX` or `xx`; its language picks the sentence (English when none is shipped and `text` is not given). */
  locale?: string | undefined;
  /** Your name as the user knows it. */
  brand: string;
  /** Your own sentence with `$$CODE$$` (and `{brand}` if you like), for a language not shipped. */
  text?: string | undefined;
  /** The host of the page that reads the code (WebOTP): adds the last line `@host #$$CODE$$`. */
  webOtpDomain?: string | undefined;
  /** The 11-character hash of your Android app (SMS Retriever API). */
  androidAppHash?: string | undefined;
  /** Accept a template that needs UCS-2 (a non-GSM character: 70 characters a part). Default false. */
  allowUcs2?: boolean | undefined;
}

/**
 * An SMS template for `verify.sms` (and `createOtp`'s `template`): the sentence of the locale with
 * `$$CODE$$`, the Android app hash when given, and the WebOTP line (`@host #$$CODE$$`) last, so
 * browsers and phones offer the code. Checked with `analyzeMessage` to fit one GSM-7 part: a
 * character outside GSM-7 (which would turn the message into UCS-2) or a text over one part throws,
 * saying which.
 *
 * @example
 * ```ts
 * import { otpTemplate } from '@x/otp';
 *
 * otpTemplate({ locale: 'fr-FR', brand: 'Acme', webOtpDomain: 'acme.example' });
 * // 'Votre code Acme est $$CODE$$. Ne le partagez pas.\n\n@acme.example #$$CODE$$'
 * ```
 */
export function otpTemplate(options: OtpTemplateOptions): string {
  const { brand, locale, webOtpDomain, androidAppHash } = options ?? ({} as OtpTemplateOptions);
  if (typeof brand !== 'string' || brand.trim() === '' || brand.length > 40) throw new XError('invalid_options', 'otpTemplate needs { brand }: your name as the user knows it, at most 40 characters.');
  const language = typeof locale === 'string' ? locale.slice(0, 2).toLowerCase() : 'en';
  const sentence = options.text ?? OTP_TEXTS[language] ?? OTP_TEXTS.en!;
  if (!sentence.includes('$$CODE$$')) throw new XError('invalid_options', 'otpTemplate: text must contain $$CODE$$, where the code goes.');
  if (webOtpDomain !== undefined && !/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/i.test(webOtpDomain)) {
    throw new XError('invalid_options', `otpTemplate: webOtpDomain must be a host name such as "example.com" (no scheme, port or path), got ${JSON.stringify(webOtpDomain)}.`);
  }
  if (androidAppHash !== undefined && !/^[A-Za-z0-9+/]{11}$/.test(androidAppHash)) {
    throw new XError('invalid_options', 'otpTemplate: androidAppHash must be the 11-character hash of your app (see Android\'s SMS Retriever API).');
  }
  const lines = [sentence.replaceAll('{brand}', brand)];
  if (androidAppHash || webOtpDomain) lines.push('');
  if (androidAppHash) lines.push(androidAppHash);
  // WebOTP: the last line is "@host #code" (origin-bound one-time codes).
  if (webOtpDomain) lines.push(`@${webOtpDomain.toLowerCase()} #$$CODE$$`);
  const template = lines.join('\n');
  // The SDK's message analysis (the service's GSM 03.38 tables). `$$CODE$$` is 8 characters and a
  // code at most 7 digits, so a template that fits one part still does with its code.
  const { encoding, units, parts, nonGsm } = analyzeMessage(template);
  if (nonGsm.length && !options.allowUcs2) {
    throw new XError('invalid_options', `otpTemplate: ${JSON.stringify(nonGsm[0]!.character)} is not a GSM-7 character, so every message would be sent as UCS-2 (70 characters a part): write it without, or pass allowUcs2: true.`);
  }
  if (parts > 1) throw new XError('invalid_options', `otpTemplate: the template takes ${units} ${encoding} units, more than one SMS part (${encoding === 'GSM-7' ? 160 : 70}): shorten the text or the brand.`);
  return template;
}
