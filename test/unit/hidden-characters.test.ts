import { describe, expect, it } from "vitest";
import { hiddenCharacters, withHiddenCharactersShown } from "../../src/validation/hidden-characters";

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
