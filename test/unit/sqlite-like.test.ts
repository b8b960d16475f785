import Sqlite from "better-sqlite3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { likeWithBackslashEscape, useBackslashEscapedLike } from "../../src/db/sqlite-like";

/**
 * The LIKE our SQLite connection uses (src/db/sqlite-like.ts) is SQLite's own LIKE with
 * `ESCAPE '\'`: checked against SQLite itself on patterns and texts made of the characters that
 * matter (wildcards, the escape, ASCII and other letters in both cases, an astral character).
 */
describe("LIKE with a backslash escape on SQLite", () => {
  const sqlite = new Sqlite(":memory:");
  afterAll(() => sqlite.close());
  const builtIn = sqlite.prepare<[string, string], { matched: number | null }>("SELECT ? LIKE ? ESCAPE '\\' AS matched");
  const alphabet = fc.constantFrom("%", "_", "\\", "a", "A", "b", "é", "É", " ", "😀", "\n");
  const text = fc.array(alphabet, { maxLength: 8 }).map((chars) => chars.join(""));

  it("answers as SQLite's LIKE … ESCAPE '\\' does", () => {
    fc.assert(
      fc.property(text, text, (pattern, value) => {
        expect(likeWithBackslashEscape(pattern, value), JSON.stringify({ pattern, value })).toBe(builtIn.get(value, pattern)!.matched);
      }),
      { numRuns: 5000 },
    );
  });

  it("is what `x LIKE y` means on a connection it is registered on, NULL included", () => {
    const connection = new Sqlite(":memory:");
    try {
      useBackslashEscapedLike(connection);
      const like = connection.prepare<[string | null, string | null], { matched: number | null }>("SELECT ? LIKE ? AS matched");
      expect(like.get("Under_score", "%r\\_s%")!.matched).toBe(1);
      expect(like.get("Underscore", "%r\\_s%")!.matched).toBe(0);
      expect(like.get("100% Travel", "%0\\% t%")!.matched).toBe(1);
      expect(like.get("Back\\slash", "%k\\\\s%")!.matched).toBe(1);
      // An escaped last `%` is text, not the wildcard that would make `%…%` a substring test.
      expect(like.get("% ", "%\\%")!.matched).toBe(0);
      expect(like.get("a %", "%\\%")!.matched).toBe(1);
      expect(like.get(null, "%")!.matched).toBeNull();
      expect(like.get("x", null)!.matched).toBeNull();
    } finally {
      connection.close();
    }
  });
});
