const COMBINING_MARKS = /\p{M}/gu;
const APOSTROPHES = /['’ʻʼ`´]/g;
const NOT_LETTER_OR_DIGIT = /[^a-z0-9]+/g;

/** Latin letters that Unicode does not decompose into a base letter plus an accent. */
const UNDECOMPOSABLE_LETTERS: Readonly<Record<string, string>> = {
  ø: "o",
  æ: "ae",
  œ: "oe",
  ß: "ss",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
};
const UNDECOMPOSABLE = new RegExp(`[${Object.keys(UNDECOMPOSABLE_LETTERS).join("")}]`, "g");

/**
 * Folds text for case- and accent-insensitive matching: "Zürich" and "ZURICH" both become
 * "zurich", "São Paulo-Guarulhos" becomes "sao paulo guarulhos". Apostrophes vanish (so
 * "Lutselk'e" matches "lutselke"); any other run of non-alphanumerics becomes one space.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .replace(UNDECOMPOSABLE, (letter) => UNDECOMPOSABLE_LETTERS[letter] ?? letter)
    .replace(APOSTROPHES, "")
    .replace(NOT_LETTER_OR_DIGIT, " ")
    .trim();
}
