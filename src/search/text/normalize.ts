// Case and diacritic folding that keeps every UTF-16 offset: folded[i] stands for original[i],
// so positions found in folded text are positions in the original (snippets need no mapping).

/** Per code unit: 0 = not computed yet, otherwise folded code + 1. */
const foldTable = new Uint32Array(65536);

function foldCode(code: number): number {
  const cached = foldTable[code]!;
  if (cached !== 0) return cached - 1;
  let out = code;
  if (code >= 0xd800 && code <= 0xdfff) {
    out = code; // surrogate halves stay as they are
  } else if (code >= 0xff01 && code <= 0xff5e) {
    out = code - 0xfee0; // full-width ASCII → ASCII
  } else {
    const ch = String.fromCharCode(code);
    const base = ch
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase();
    if (base.length === 1) out = base.charCodeAt(0);
    else {
      const lower = ch.toLowerCase();
      if (lower.length === 1) out = lower.charCodeAt(0);
    }
    if (out === 0x131) out = 0x69; // dotless i → i
  }
  foldTable[code] = out + 1;
  return out;
}

// Characters whose fold is more than a plain toLowerCase: accented Latin, Greek tonos, full-width.
const NEEDS_TABLE = /[\u00c0-\u024f\u0370-\u03ff\u1e00-\u1fff\uff01-\uff5e\u0131]/;
const NEEDS_TABLE_G = /[\u00c0-\u024f\u0370-\u03ff\u1e00-\u1fff\uff01-\uff5e\u0131]/g;
const NON_ASCII = /[^\x00-\x7f]/;

/** Whether `text` is plain ASCII: folding it is a toLowerCase, and its regexps need no Unicode care. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

function foldSlow(text: string): string {
  const parts: string[] = [];
  let codes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    codes.push(foldCode(text.charCodeAt(i)));
    if (codes.length === 4096) {
      parts.push(String.fromCharCode(...codes));
      codes = [];
    }
  }
  parts.push(String.fromCharCode(...codes));
  return parts.join("");
}

/** Lower case, accents removed, full-width ASCII narrowed; same length as the input. */
export function fold(text: string): string {
  if (isAscii(text)) return text.toLowerCase();
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return foldSlow(text);
  if (!NEEDS_TABLE.test(lower)) return lower;
  return lower.replace(NEEDS_TABLE_G, (ch) => String.fromCharCode(foldCode(ch.charCodeAt(0))));
}

// Character classes of the original text, used for token boundaries.
export const SEP = 0;
export const LOWER = 1; // letters without upper case, marks
export const UPPER = 2;
export const DIGIT = 3;
export const CJK = 4;

/** Per code unit: 0 = not computed, otherwise class + 1. */
const classTable = new Uint8Array(65536);
const LETTER = /[\p{L}\p{M}]/u;
const NUMBER = /\p{N}/u;

function isCjkCode(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // Hiragana, Katakana
    (code >= 0x31f0 && code <= 0x31ff) ||
    (code >= 0x3400 && code <= 0x4dbf) || // Han ext A
    (code >= 0x4e00 && code <= 0x9fff) || // Han
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xff66 && code <= 0xff9f) || // half-width Katakana
    code === 0x3005 // 々
  );
}

function computeClass(code: number): number {
  if (code < 128) {
    if (code >= 97 && code <= 122) return LOWER;
    if (code >= 65 && code <= 90) return UPPER;
    if (code >= 48 && code <= 57) return DIGIT;
    return SEP;
  }
  if (code >= 0xd800 && code <= 0xdfff) return SEP;
  if (isCjkCode(code)) return CJK;
  if (code === 0x30fc) return CJK; // ー (inside the Katakana block anyway)
  const ch = String.fromCharCode(code);
  if (LETTER.test(ch)) return ch.toLowerCase() !== ch ? UPPER : LOWER;
  if (NUMBER.test(ch)) return DIGIT;
  if (code >= 0xff10 && code <= 0xff19) return DIGIT;
  return SEP;
}

/** Class of one UTF-16 code unit of the original (unfolded) text. */
export function charClass(code: number): number {
  const cached = classTable[code]!;
  if (cached !== 0) return cached - 1;
  const cls = computeClass(code);
  classTable[code] = cls + 1;
  return cls;
}
