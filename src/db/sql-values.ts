import { Prisma } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";

/**
 * Values for raw SQL, written exactly as Prisma writes them so Prisma reads the rows back
 * unchanged and text comparisons of SQLite dates stay in order.
 */

/** A DateTime: ISO text with `+00:00` on SQLite, `timestamp(3)` on PostgreSQL. */
export function sqlTimestamp(provider: Database["provider"], date: Date): Prisma.Sql {
  const text = date.toISOString().replace("Z", "+00:00");
  return provider === "postgresql" ? Prisma.sql`${text}::timestamp(3)` : Prisma.sql`${text}`;
}

/** A Json column: JSON text, cast to jsonb on PostgreSQL. */
export function sqlJson(provider: Database["provider"], value: unknown): Prisma.Sql {
  const text = JSON.stringify(value);
  return provider === "postgresql" ? Prisma.sql`${text}::jsonb` : Prisma.sql`${text}`;
}

/**
 * A 64-bit integer column as an exact number. The product never writes one past 2^53 − 1
 * (src/money/minor-units.ts), so a larger value is corruption: it throws rather than round.
 */
export function exactNumber(value: bigint | number): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new Error(`stored integer ${value} is not exactly representable`);
  return number;
}

/** A DateTime column read by raw SQL: ISO text on SQLite, a Date on PostgreSQL. */
export function dateFrom(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === "string") return new Date(value);
  throw new Error(`not a stored date: ${String(value)}`);
}

/** A Json column read by raw SQL: text on SQLite, already parsed on PostgreSQL. */
export function jsonFrom<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** The DateTime `column` moved `seconds` earlier (a whole number), written as `sqlTimestamp` writes it. */
export function sqlTimestampEarlier(provider: Database["provider"], column: string, seconds: number): Prisma.Sql {
  const name = Prisma.raw(`"${column}"`);
  return provider === "postgresql"
    ? Prisma.sql`${name} - (${Math.trunc(seconds)}::int * interval '1 second')`
    : Prisma.sql`strftime('%Y-%m-%dT%H:%M:%f', ${name}, ${`-${Math.trunc(seconds)} seconds`}) || '+00:00'`;
}
