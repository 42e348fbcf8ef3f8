// The GSM 7-bit default alphabet (3GPP TS 23.038, formerly GSM 03.38, §6.2.1) and its extension
// table (§6.2.1.1), in few bytes: the basic table is the printable ASCII characters but ` [ \ ] ^
// { | } ~, plus line feed, carriage return and the characters below; a character of the extension
// table is sent as the escape (0x1B) and its code, two septets. test/gsm-7.test.ts holds both
// tables as the standard lays them out and checks this against them for every character.
const BASIC_OTHER = '\n\r£¥èéùìòÇØøÅåΔΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà';
const EXTENSION = '\f^{}\\[~]|€';

/**
 * The septets one character (one code point) takes in GSM-7: 1 in the basic table, 2 in the
 * extension table, 0 when GSM-7 cannot carry it.
 */
export const gsmSeptets = (character: string): number =>
  EXTENSION.includes(character) ? 2 : (character > '\u001f' && character < '\u007f' && character !== '`') || BASIC_OTHER.includes(character) ? 1 : 0;
