import type { Database } from "./database";

/**
 * A Prisma string filter for "contains `text`, ignoring case". PostgreSQL is asked to
 * (`mode: insensitive`, ILIKE); SQLite's LIKE, which Prisma's `contains` uses there, already
 * ignores the case of ASCII letters (not of others: É and é differ).
 */
export function containsAnyCase(provider: Database["provider"], text: string): { contains: string } {
  // `mode` exists only in the PostgreSQL client's types; the models are typed with SQLite's.
  return provider === "postgresql" ? ({ contains: text, mode: "insensitive" } as { contains: string }) : { contains: text };
}
