import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hiddenCharacters, withHiddenCharactersShown } from "../../src/validation/hidden-characters";
import { SHOWN_TEXT_PATTERN, shownText } from "../../src/validation/shown-text";

/** The one rule for characters that change or hide what is shown (src/validation/hidden-characters.ts). */
describe("hidden characters", () => {
  it.each([
    ["Acme\u202Eelbat", "Acme⟨U+202E⟩elbat"],
    ["\u2067Acme\u2069", "⟨U+2067⟩Acme⟨U+2069⟩"],
    ["Ac\u200Bme", "Ac⟨U+200B⟩me"],
    ["Ac\u200Dme", "Ac⟨U+200D⟩me"],
    ["Acme\u{E0041}", "Acme⟨U+E0041⟩"],
    ["Ac\u00ADme", "Ac⟨U+00AD⟩me"],
    ["line\nbreak\ttab", "line⟨U+000A⟩break⟨U+0009⟩tab"],
    ["A\uFE0F", "A⟨U+FE0F⟩"],
    ["\u200Dstart", "⟨U+200D⟩start"],
  ])("shows %j as %j", (text, shown) => {
    expect(withHiddenCharactersShown(text)).toBe(shown);
    expect(hiddenCharacters(text).length).toBeGreaterThan(0);
  });

  it.each([
    ["plain text", "Blue Sky Travel"],
    ["accents and other scripts", "Zürich Ελλάδα Москва 東京"],
    ["a Persian zero-width non-joiner", "می\u200Cروم"],
    ["a Devanagari zero-width joiner", "क्\u200Dष"],
    ["an emoji presentation selector", "\u2708\uFE0F"],
    ["a keycap", "1\uFE0F\u20E3"],
    ["an emoji sequence with a skin tone", "\u{1F44B}\u{1F3FD}"],
    ["an emoji joined sequence", "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"],
    ["a joined sequence after a selector", "\u2764\uFE0F\u200D\u{1F525}"],
  ])("leaves %s as it is", (_label, text) => {
    expect(hiddenCharacters(text)).toEqual([]);
    expect(withHiddenCharactersShown(text)).toBe(text);
  });

  it("counts positions in characters, astral ones as one", () => {
    expect(hiddenCharacters("\u{1F600}a\u202E")).toEqual([{ position: 2, codePoint: 0x202e }]);
  });
});

/**
 * /openapi.json states the rule as a pattern (JSON Schema, ECMAScript with flag `u`): it must
 * take exactly the text the rule takes, the joiners and selectors that are part of the text
 * included. Strings are drawn from the characters where the rule has its cases.
 */
describe("the rule as the document states it", () => {
  const tricky = fc.constantFrom(
    ..."aZ é0#*",
    "\u0645", "\u06CC", "\u0915", "\u094D", "\u0937", "\u03B1", "\u0436",
    "\u200C", "\u200D", "\uFE0E", "\uFE0F", "\u20E3", "\u{1F468}", "\u{1F3FD}", "\u2708", "\u{1F6EB}",
    "\u202E", "\u2067", "\u200B", "\u00AD", "\u{E0041}", "\n", "\t", "\u0000", "\u2028", "\uFEFF", "\u3164",
  );
  const text = fc.array(tricky, { maxLength: 8 }).map((characters) => characters.join(""));
  const seed = Number(process.env.FUZZ_SEED ?? 37_2026);

  it("takes exactly the text hiddenCharacters finds nothing in", () => {
    const pattern = new RegExp(SHOWN_TEXT_PATTERN, "u");
    fc.assert(fc.property(text, (sample) => pattern.test(sample) === (hiddenCharacters(sample).length === 0)), { seed, numRuns: 5_000 });
  });

  it("states shownText's rule, trimming included", () => {
    const schema = shownText({ min: 1, max: 1_000 });
    const pattern = new RegExp(String((schema.meta() as { pattern: string }).pattern), "u");
    fc.assert(fc.property(text, (sample) => pattern.test(sample) === schema.safeParse(sample).success), { seed, numRuns: 5_000 });
  });
});
