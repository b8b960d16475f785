/**
 * Characters that change or hide what a person sees without being seen themselves: the
 * bidirectional controls (overrides, embeddings, isolates, marks), the zero-width and other
 * default-ignorable characters (joiners, word joiner, soft hyphen, tags, fillers, variation
 * selectors), other format characters, controls and line breaks. In a name they can show "Acme"
 * reversed, or make two names that look alike differ. Pure: the server refuses them in names
 * (shown-text.ts) and the console shows them (console/src/ui/ShownText.tsx) by this one rule.
 *
 * Two kinds are part of the text where they stand, and are neither refused nor escaped:
 * - a zero-width joiner or non-joiner between two letters of a script that needs them (Persian
 *   "می‌روم", Devanagari conjuncts), never Latin, Greek or Cyrillic, where they only hide;
 * - the joiners and presentation selectors of an emoji sequence ("✈️", "👨‍👩‍👧").
 */
const HIDDEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/u;
const ZERO_WIDTH_NON_JOINER = "\u200C";
const ZERO_WIDTH_JOINER = "\u200D";
const PRESENTATION_SELECTORS = new Set(["\uFE0E", "\uFE0F"]);
const LETTER = /^[\p{L}\p{M}]$/u;
/** Scripts that never need a joiner, and the shared ones (digits, punctuation, combining marks). */
const JOINERLESS_SCRIPT = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const EMOJI_MODIFIER = /^\p{Emoji_Modifier}$/u;
const KEYCAP_BASE = /^[0-9#*]$/;
const COMBINING_KEYCAP = "\u20E3";

/**
 * The same rule as one regular expression over code points (ECMAScript, flag `u`): a character
 * that is not hidden, or one of the two kinds that are part of the text where they stand. It is
 * how /openapi.json states the rule (a JSON Schema `pattern`); test/unit/hidden-characters.test.ts
 * holds it equal to `hiddenCharacters`.
 */
const JOINING_LETTER = "(?![\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{Script=Common}\\p{Script=Inherited}])[\\p{L}\\p{M}]";
export const SHOWN_CHARACTER = [
  "[^\\p{Default_Ignorable_Code_Point}\\p{Cf}\\p{Cc}\\p{Zl}\\p{Zp}]",
  `(?<=${JOINING_LETTER})[\\u200C\\u200D](?=${JOINING_LETTER})`,
  "(?<=\\p{Extended_Pictographic}[\\uFE0E\\uFE0F\\p{Emoji_Modifier}]?)\\u200D(?=\\p{Extended_Pictographic})",
  "(?<=\\p{Extended_Pictographic})[\\uFE0E\\uFE0F]",
  "(?<=[0-9#*])[\\uFE0E\\uFE0F](?=\\u20E3)",
].join("|");

/** A hidden character: where it is (in characters, from 0) and which it is. */
export interface HiddenCharacter {
  position: number;
  codePoint: number;
}

/** Every hidden character of `text`, in order; none for text that shows as it is. */
export function hiddenCharacters(text: string): HiddenCharacter[] {
  const characters = [...text];
  const found: HiddenCharacter[] = [];
  characters.forEach((character, position) => {
    if (HIDDEN.test(character) && !partOfText(characters, position)) found.push({ position, codePoint: character.codePointAt(0)! });
  });
  return found;
}

/** `U+202E`: how a character is named in messages and shown in the console. */
export function codePointName(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `text` with each hidden character replaced by its name in angle brackets: "Acme⟨U+202E⟩elbat". */
export function withHiddenCharactersShown(text: string): string {
  const hidden = new Set(hiddenCharacters(text).map(({ position }) => position));
  if (hidden.size === 0) return text;
  return [...text].map((character, position) => (hidden.has(position) ? `⟨${codePointName(character.codePointAt(0)!)}⟩` : character)).join("");
}

function partOfText(characters: readonly string[], position: number): boolean {
  const character = characters[position]!;
  const before = characters[position - 1];
  const after = characters[position + 1];
  if (character === ZERO_WIDTH_NON_JOINER || character === ZERO_WIDTH_JOINER) {
    if (joinsLetters(before) && joinsLetters(after)) return true;
    return character === ZERO_WIDTH_JOINER && endsEmoji(characters, position - 1) && after !== undefined && PICTOGRAPH.test(after);
  }
  if (PRESENTATION_SELECTORS.has(character) && before !== undefined) {
    return PICTOGRAPH.test(before) || (KEYCAP_BASE.test(before) && after === COMBINING_KEYCAP);
  }
  return false;
}

function joinsLetters(character: string | undefined): boolean {
  return character !== undefined && LETTER.test(character) && !JOINERLESS_SCRIPT.test(character);
}

/** Whether the characters up to `position` end an emoji: a pictograph, then at most a selector or a skin-tone modifier. */
function endsEmoji(characters: readonly string[], position: number): boolean {
  const last = characters[position];
  if (last === undefined) return false;
  if (PICTOGRAPH.test(last)) return true;
  const beforeLast = characters[position - 1];
  return (PRESENTATION_SELECTORS.has(last) || EMOJI_MODIFIER.test(last)) && beforeLast !== undefined && PICTOGRAPH.test(beforeLast);
}
