import type { Database as SqliteConnection } from "better-sqlite3";
import type { Prisma } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";
import { prepared } from "./prepared-statements";

/** A statement of a batch that must change at least one row (exactly `rows`, when given), or the whole batch is undone. */
export interface GuardedStatement {
  sql: Prisma.Sql;
  /** Named in the `GuardFailed` the batch throws. */
  guard: string;
  /** For a statement that changes several records at once: each of them must change. */
  rows?: number;
}

export type BatchStatement = Prisma.Sql | GuardedStatement;

/** Marks `sql` as a guard: when it changes no row (or not exactly `rows`), the batch rolls back with `GuardFailed(name)`. */
export function guarded(sql: Prisma.Sql, name: string, rows?: number): GuardedStatement {
  return rows === undefined ? { sql, guard: name } : { sql, guard: name, rows };
}

/** The batch was rolled back because guard `guard` changed no row (or not the rows it names). */
export class GuardFailed extends Error {
  override name = "GuardFailed";
  constructor(readonly guard: string) {
    super(`batch guard "${guard}" changed no row`);
  }
}

type BatchRunner = (batch: BatchStatement[]) => number[];

/** Per connection, the batch as one synchronous transaction. */
const runners = new WeakMap<SqliteConnection, BatchRunner>();

/**
 * Runs write statements atomically and in order, and returns each one's affected-row count. A
 * guarded statement that changes no row rolls everything back and throws `GuardFailed`, which is
 * how a batch makes a compare-and-set (a state transition, a debit that needs the balance) the
 * condition of the writes after it.
 *
 * On SQLite the batch runs as one synchronous transaction of prepared statements, kept per
 * connection, on the very connection Prisma uses, in its turn at the connection's gate. That is
 * the hot path of a search: Prisma's raw-query path re-encodes every parameter for its query
 * compiler and prepares the statement again each time, ~3 ms for a 70 KB batch of 50 offers
 * against ~1 ms here. On PostgreSQL it is one interactive transaction, or one statement on its
 * own when that is all the batch is (a search's row): no BEGIN and COMMIT round trips, and no
 * wait for a transaction slot, which under load is what a busy pool runs out of first.
 */
export async function writeBatch(db: Database, statements: BatchStatement[]): Promise<number[]> {
  return (await timedWriteBatch(db, statements)).counts;
}

/**
 * `writeBatch`, also saying how long the batch itself took: on SQLite how long it held the
 * connection (not its wait for its turn), on PostgreSQL its transaction from start to commit.
 */
export async function timedWriteBatch(db: Database, statements: BatchStatement[]): Promise<{ counts: number[]; heldMs: number }> {
  if (db.sqlite) return sqliteBatch(db, db.sqlite, statements);
  const started = performance.now();
  const [only] = statements;
  if (statements.length === 1 && only && standsAlone(only)) {
    const count = await db.prisma.$executeRaw(sqlOf(only));
    checkGuard(only, count);
    return { counts: [count], heldMs: performance.now() - started };
  }
  const counts = await db.prisma.$transaction(async (tx) => {
    const done: number[] = [];
    for (const statement of statements) {
      const count = await tx.$executeRaw(sqlOf(statement));
      checkGuard(statement, count);
      done.push(count);
    }
    return done;
  });
  return { counts, heldMs: performance.now() - started };
}

/** The batch on SQLite's shared connection, reported to the database's availability as Prisma's statements are (watched-adapter.ts). */
async function sqliteBatch(db: Database, sqlite: NonNullable<Database["sqlite"]>, statements: BatchStatement[]): Promise<{ counts: number[]; heldMs: number }> {
  let batch: { counts: number[]; heldMs: number };
  try {
    batch = await sqlite.run((connection) => {
      const started = performance.now();
      const counts = runner(connection)(statements);
      return { counts, heldMs: performance.now() - started };
    });
  } catch (error) {
    db.availability.notice(error);
    throw error;
  }
  if (batch.counts.some((count) => count > 0)) db.availability.noticeWrite();
  return batch;
}

function sqlOf(statement: BatchStatement): Prisma.Sql {
  return "guard" in statement ? statement.sql : statement;
}

/** A statement that needs no transaction of its own: unguarded, or guarded on changing some row (a guard that fails then changed nothing). */
function standsAlone(statement: BatchStatement): boolean {
  return !("guard" in statement) || statement.rows === undefined;
}

function checkGuard(statement: BatchStatement, count: number): void {
  if ("guard" in statement && (statement.rows === undefined ? count === 0 : count !== statement.rows)) throw new GuardFailed(statement.guard);
}

function runner(connection: SqliteConnection): BatchRunner {
  let run = runners.get(connection);
  if (!run) {
    run = connection.transaction((batch: BatchStatement[]) =>
      batch.map((statement) => {
        const { sql, values } = sqlOf(statement);
        const count = prepared(connection, sql).run(...values).changes;
        checkGuard(statement, count);
        return count;
      }),
    );
    runners.set(connection, run);
  }
  return run;
}
