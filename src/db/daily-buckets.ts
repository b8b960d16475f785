import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";
import { queryRows } from "./query-rows";
import { sqlTimestamp } from "./sql-values";

const DAY_MS = 24 * 3600 * 1000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A span of two years is enough for any chart; longer ones would only make the answer large. */
export const MAX_RANGE_DAYS = 731;

/** UTC days `from` to `to`, both included, as `YYYY-MM-DD`; the instants they span, end excluded. */
export interface DayRange {
  days: string[];
  startsAt: Date;
  endsBefore: Date;
}

let lastDay = { number: Number.NaN, text: "" };

/** The UTC day of an instant, `YYYY-MM-DD`; every request counts its usage under one, so the last is remembered. */
export function utcDay(instant: Date): string {
  const dayNumber = Math.floor(instant.getTime() / DAY_MS);
  if (dayNumber !== lastDay.number) lastDay = { number: dayNumber, text: instant.toISOString().slice(0, 10) };
  return lastDay.text;
}

function dayStart(day: string, field: string): Date {
  const start = new Date(`${day}T00:00:00.000Z`);
  if (!DAY_PATTERN.test(day) || Number.isNaN(start.getTime()) || utcDay(start) !== day) {
    throw appError("validation_failed", { field, message: `${field}: ${JSON.stringify(day)} is not a date (YYYY-MM-DD)` });
  }
  return start;
}

/** 400 `validation_failed` naming the field for a malformed day, `to` before `from`, or a span past MAX_RANGE_DAYS. */
export function dayRange(from: string, to: string): DayRange {
  const startsAt = dayStart(from, "from");
  const lastStart = dayStart(to, "to");
  const count = (lastStart.getTime() - startsAt.getTime()) / DAY_MS + 1;
  if (count < 1) throw appError("validation_failed", { field: "to", message: "to: must not be before from" });
  if (count > MAX_RANGE_DAYS) throw appError("validation_failed", { field: "to", message: `to: at most ${MAX_RANGE_DAYS} days from from` });
  const days = Array.from({ length: count }, (_unused, index) => utcDay(new Date(startsAt.getTime() + index * DAY_MS)));
  return { days, startsAt, endsBefore: new Date(lastStart.getTime() + DAY_MS) };
}

/**
 * The UTC day of a DateTime column, as SQL: SQLite stores ISO text with `+00:00` (sql-values.ts),
 * PostgreSQL a `timestamp(3)` holding UTC.
 */
export function sqlUtcDay(provider: Database["provider"], column: Sql.Sql): Sql.Sql {
  return provider === "postgresql" ? Sql.sql`to_char(${column}, 'YYYY-MM-DD')` : Sql.sql`substr(${column}, 1, 10)`;
}

/**
 * One figure per day of `range` from `table`'s rows of the tenant: `figure` (e.g. `COUNT(*)`)
 * over the rows whose `createdAt` falls in each day and that pass `where`. Days without rows are
 * absent from the map.
 */
export async function figuresByDay(
  db: Database,
  query: { table: string; tenantId: string; range: DayRange; figure: Sql.Sql; where?: Sql.Sql },
): Promise<Map<string, number>> {
  const { table, tenantId, range } = query;
  const createdAt = Sql.raw(`"${table}"."createdAt"`);
  const rows = await queryRows<{ day: string; figure: number | null }>(
    db,
    Sql.sql`SELECT ${sqlUtcDay(db.provider, createdAt)} AS "day", CAST(${query.figure} AS BIGINT) AS "figure"
      FROM ${Sql.raw(`"${table}"`)}
      WHERE "tenantId" = ${tenantId} AND ${createdAt} >= ${sqlTimestamp(db.provider, range.startsAt)} AND ${createdAt} < ${sqlTimestamp(db.provider, range.endsBefore)}
        ${query.where ? Sql.sql`AND ${query.where}` : Sql.empty}
      GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.day, Number(row.figure ?? 0)]));
}
