import type { Database } from "./database";

/**
 * A Prisma string filter for "contains `text`, ignoring case", where every character of `text`
 * stands for itself. Prisma sends `contains` as LIKE without escaping it, so `%`, `_` and `\` are
 * escaped here with `\`: PostgreSQL's LIKE escape character, and SQLite's on our connection
 * (sqlite-like.ts). PostgreSQL is asked to ignore case (`mode: insensitive`, ILIKE); SQLite's LIKE
 * already ignores the case of ASCII letters (not of others: É and é differ).
 */
export function containsAnyCase(provider: Database["provider"], text: string): { contains: string } {
  const contains = escapeLikePattern(text);
  // `mode` exists only in the PostgreSQL client's types; the models are typed with SQLite's.
  return provider === "postgresql" ? ({ contains, mode: "insensitive" } as { contains: string }) : { contains };
}

/** `text` as a LIKE pattern that matches exactly it: `%`, `_` and `\` escaped with `\`. */
function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}
