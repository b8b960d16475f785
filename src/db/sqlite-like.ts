import type { Database as SqliteConnection } from "better-sqlite3";
import { RecentMap } from "../recent-map";

/**
 * SQLite's LIKE with `\` as its escape character, as PostgreSQL's LIKE and ILIKE have by default.
 *
 * Prisma writes `contains` as `LIKE ('%' || ? || '%')` with no ESCAPE clause, and SQLite's LIKE
 * has no escape character without one, so text holding `%` or `_` could only be searched as
 * wildcards there. Registered on the connection as `like(pattern, value)`, the function SQLite
 * calls for every `x LIKE y` without ESCAPE; it keeps SQLite's other rules: `%` any run of
 * characters, `_` one character, case ignored for ASCII letters only, NULL for NULL.
 */
export function useBackslashEscapedLike(connection: SqliteConnection): void {
  connection.function("like", { deterministic: true }, likeWithBackslashEscape);
}

/** `like(pattern, value)`: 1 when `value` matches `pattern`, 0 when not, null when either is NULL. */
export function likeWithBackslashEscape(pattern: unknown, value: unknown): 0 | 1 | null {
  if (pattern === null || value === null) return null;
  const matcher = matcherOf(String(pattern));
  return matcher(asciiLowerCase(String(value))) ? 1 : 0;
}

type Matcher = (text: string) => boolean;

/** Patterns seen recently, compiled once: a query applies one pattern to every row it reads. */
const matchers = new RecentMap<string, Matcher>(200);

function matcherOf(pattern: string): Matcher {
  let matcher = matchers.get(pattern);
  if (!matcher) {
    matcher = compile(asciiLowerCase(pattern));
    matchers.set(pattern, matcher);
  }
  return matcher;
}

const NEVER: Matcher = () => false;

/** A pattern as a test; `%text%` (what `contains` sends) is a substring test, anything else a regular expression. */
function compile(pattern: string): Matcher {
  let source = "";
  let literal = "";
  // `%text%` with both `%` wildcards: an escaped last `%` (as in `%\%`) is part of the text.
  let onlyLiteralBetweenPercents = pattern.length >= 2 && pattern.startsWith("%");
  let endsWithWildcard = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "\\") {
      index += 1;
      // An escape with nothing after it matches nothing, as SQLite's ESCAPE does.
      if (index === pattern.length) return NEVER;
      const escaped = String.fromCodePoint(pattern.codePointAt(index)!);
      if (escaped.length === 2) index += 1;
      source += escapeRegExp(escaped);
      literal += escaped;
    } else if (char === "%") {
      source += "[^]*";
      if (index === pattern.length - 1) endsWithWildcard = true;
      else if (index !== 0) onlyLiteralBetweenPercents = false;
    } else if (char === "_") {
      source += ".";
      onlyLiteralBetweenPercents = false;
    } else {
      source += escapeRegExp(char);
      literal += char;
    }
  }
  if (onlyLiteralBetweenPercents && endsWithWildcard) return (text) => text.includes(literal);
  const expression = new RegExp(`^${source}$`, "su");
  return (text) => expression.test(text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** SQLite's LIKE folds the case of ASCII letters only (É and é differ). */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
