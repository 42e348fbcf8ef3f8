// The GSM 03.38 default alphabet and its extension table: what an SMS can carry without turning
// into UCS-2 (70 characters a part instead of 160).
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const EXTENSION = '^{}\\[~]|€\f';

/** Septets the text takes in GSM-7 (extension characters take two), or undefined when it needs UCS-2. */
export function gsm7Septets(text: string): number | undefined {
  let septets = 0;
  for (const char of text) {
    if (BASIC.includes(char)) septets += 1;
    else if (EXTENSION.includes(char)) septets += 2;
    else return undefined;
  }
  return septets;
}
