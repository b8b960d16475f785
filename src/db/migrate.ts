// Runtime migration runner: applies the committed SQL files in prisma/migrations/<provider>/ and
// keeps Prisma Migrate's `_prisma_migrations` history (same columns, checksums and meaning), so
// `prisma migrate deploy` would find the history compatible. No Prisma CLI, no engine: plain SQL.
//
// Differences from Prisma Migrate, on purpose: each migration runs in its own transaction (a failure
// leaves nothing half-applied, so its history row is written as rolled back and the next start
// retries it), and SQLite foreign-key enforcement is switched off around the transaction and
// checked before commit (Prisma's table-redefinition scripts need it off, and SQLite ignores
// `PRAGMA foreign_keys` inside a transaction).
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { sqliteFilePath, type Database } from "./database";
import { clock } from "../clock";

/** One migration folder: `<timestamp>_<name>/migration.sql`. */
interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** The history columns the runner decides with, as `selectHistorySql` returns them (0 or 1 flags). */
interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished: number | string;
  rolled_back: number | string;
}

export interface MigrateOptions {
  /** Folder holding the migration folders; defaults to <repo>/prisma/migrations/<provider>. */
  migrationsDir?: string;
}

/** Raised when the history forbids going on (edited or failed migration) or a migration fails. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Prisma Migrate's advisory lock key: our runner and `prisma migrate deploy` exclude each other. */
const postgresLockKey = 72707369;

const createHistorySql = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
} as const;

const selectHistorySql = `SELECT migration_name, checksum,
  CASE WHEN finished_at IS NULL THEN 0 ELSE 1 END AS finished,
  CASE WHEN rolled_back_at IS NULL THEN 0 ELSE 1 END AS rolled_back
  FROM "_prisma_migrations"`;

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Prisma accepts a checksum of the script as written or with its line endings converted. */
function checksumMatches(sql: string, checksum: string): boolean {
  return [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")].some((variant) => sha256(variant) === checksum);
}

const migrationCache = new Map<string, MigrationFile[]>();

/** Reads (once per process) the migration folders in name order, as Prisma does. */
function readMigrations(dir: string): MigrationFile[] {
  const cached = migrationCache.get(dir);
  if (cached) return cached;
  if (!existsSync(dir)) throw new MigrationError(`migrations folder ${dir} does not exist`);
  const migrations = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = join(dir, name, "migration.sql");
      if (!existsSync(file)) throw new MigrationError(`migration ${name} has no migration.sql (${file})`);
      const sql = readFileSync(file, "utf8");
      return { name, sql, checksum: sha256(sql) };
    });
  migrationCache.set(dir, migrations);
  return migrations;
}

function migrationsDirFor(db: Database, options: MigrateOptions): string {
  return options.migrationsDir ?? join(repoRoot, "prisma", "migrations", db.provider === "sqlite" ? "sqlite" : "postgres");
}

/**
 * Checks the history against the files and returns the migrations still to apply, in order.
 * Stops on a migration that failed and was never resolved (the database may be half-migrated) and on
 * an applied migration whose file changed since (the database no longer matches the files).
 */
function planMigrations(files: MigrationFile[], rows: HistoryRow[]): MigrationFile[] {
  const history = rows.map((row) => ({ ...row, finished: Number(row.finished) === 1, rolled_back: Number(row.rolled_back) === 1 }));
  const unresolved = history.find((row) => !row.finished && !row.rolled_back);
  if (unresolved) {
    throw new MigrationError(
      `migration ${unresolved.migration_name} failed earlier and was not rolled back; the database may be ` +
        `partly migrated. Inspect it, fix it by hand, then mark the row rolled back (UPDATE "_prisma_migrations" ` +
        `SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name = '${unresolved.migration_name}' AND finished_at IS NULL).`,
    );
  }
  const applied = new Map(history.filter((row) => row.finished && !row.rolled_back).map((row) => [row.migration_name, row]));
  for (const file of files) {
    const row = applied.get(file.name);
    if (row && !checksumMatches(file.sql, row.checksum)) {
      throw new MigrationError(
        `migration ${file.name} was edited after it was applied (checksum ${row.checksum} in the database, ` +
          `${file.checksum} on disk). Restore the applied file and put the change in a new migration.`,
      );
    }
  }
  return files.filter((file) => !applied.has(file.name));
}

function failure(name: string, error: unknown): MigrationError {
  const reason = error instanceof Error ? error.message : String(error);
  return new MigrationError(`migration ${name} failed and was rolled back: ${reason}`, { cause: error });
}

/** Runs `undo` after a failure without letting its own error hide the original one. */
async function bestEffort(undo: () => unknown): Promise<void> {
  try {
    await undo();
  } catch {
    // The original error is the one worth reporting.
  }
}

async function applySqlite(path: string, files: MigrationFile[]): Promise<string[]> {
  // A long wait: a process starting beside another one waits for its migrations to finish.
  const connection = new BetterSqlite3(path, { timeout: 60_000 });
  const applied: string[] = [];
  try {
    // Outside any transaction, where SQLite honours it (see the header).
    connection.pragma("foreign_keys = OFF");
    // Committed on its own, so a failed first migration can still be recorded.
    connection.exec(createHistorySql.sqlite);
    for (;;) {
      // IMMEDIATE takes the write lock before reading the history, so concurrent starters queue up.
      connection.exec("BEGIN IMMEDIATE");
      let next: MigrationFile | undefined;
      try {
        next = planMigrations(files, connection.prepare(selectHistorySql).all() as HistoryRow[])[0];
      } catch (error) {
        connection.exec("ROLLBACK");
        throw error;
      }
      if (!next) {
        connection.exec("COMMIT");
        return applied;
      }
      const id = randomUUID();
      const startedAt = clock.nowMs(); // Prisma stores SQLite DATETIMEs as Unix milliseconds
      try {
        connection
          .prepare(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES (?, ?, ?, ?)`)
          .run(id, next.checksum, next.name, startedAt);
        connection.exec(next.sql);
        const violations = connection.pragma("foreign_key_check") as unknown[];
        if (violations.length > 0) throw new Error(`it leaves ${violations.length} foreign key violation(s)`);
        connection
          .prepare(`UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?`)
          .run(clock.nowMs(), id);
        connection.exec("COMMIT");
        applied.push(next.name);
      } catch (error) {
        if (connection.inTransaction) connection.exec("ROLLBACK");
        await bestEffort(() =>
          connection
            .prepare(
              `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, rolled_back_at, started_at) VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(id, next.checksum, next.name, String(error), clock.nowMs(), startedAt),
        );
        throw failure(next.name, error);
      }
    }
  } finally {
    connection.close();
  }
}

async function applyPostgres(url: string, files: MigrationFile[]): Promise<string[]> {
  // A connection of its own: multi-statement scripts need the simple query protocol, which a
  // parameterless pg query uses.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied: string[] = [];
  try {
    for (;;) {
      // One transaction per migration, the lock taken inside it (transaction-level): it holds
      // through a transaction-pooling PgBouncer, where a session lock would stay with whichever
      // server connection took it. Prisma's session lock on the same key still excludes us.
      await client.query("BEGIN");
      let next: MigrationFile | undefined;
      const id = randomUUID();
      try {
        // Bounded wait: a lock leaked by a dead session should fail the start, not hang it.
        await client.query("SET LOCAL lock_timeout = '120s'");
        await client.query(`SELECT pg_advisory_xact_lock(${postgresLockKey})`);
        await client.query("SET LOCAL lock_timeout = 0");
        await client.query(createHistorySql.postgresql);
        next = planMigrations(files, (await client.query<HistoryRow>(selectHistorySql)).rows)[0];
        if (!next) {
          await client.query("COMMIT");
          return applied;
        }
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`,
          [id, next.checksum, next.name],
        );
        await client.query(next.sql);
        await client.query(
          `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await client.query("COMMIT");
        applied.push(next.name);
      } catch (error) {
        await bestEffort(() => client.query("ROLLBACK"));
        if (!next) throw error;
        const failed = next;
        await bestEffort(() =>
          client.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs, rolled_back_at) VALUES ($1, $2, $3, $4, now())`,
            [id, failed.checksum, failed.name, String(error)],
          ),
        );
        throw failure(failed.name, error);
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies every migration of `db`'s provider that the history does not list as applied, each in
 * its own transaction, under a lock that makes several processes starting together take turns
 * (PostgreSQL: Prisma's advisory lock key, taken by each migration's transaction; SQLite: an
 * immediate transaction). Returns the names applied.
 * @throws MigrationError when an applied migration's file was edited, when an earlier failure was
 *   never resolved, or when a migration fails (it is rolled back and recorded as such).
 */
export async function applyMigrations(db: Database, options: MigrateOptions = {}): Promise<{ applied: string[] }> {
  const files = readMigrations(migrationsDirFor(db, options));
  const applied =
    db.provider === "sqlite" ? await applySqlite(sqliteFilePath(db.url), files) : await applyPostgres(db.primary!.currentUrl(), files);
  return { applied };
}

/**
 * Names of the migrations not yet applied to `db` (all of them on an empty database), for
 * readiness checks. Reads the history through Prisma's pool; cheap enough to call per probe.
 */
export async function pendingMigrations(db: Database, options: MigrateOptions = {}): Promise<string[]> {
  const files = readMigrations(migrationsDirFor(db, options));
  const tableExists =
    db.provider === "sqlite"
      ? `SELECT COUNT(*) AS found FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`
      : `SELECT COUNT(*) AS found FROM pg_catalog.pg_tables WHERE tablename = '_prisma_migrations' AND schemaname = current_schema()`;
  const [table] = await db.prisma.$queryRawUnsafe<{ found: bigint | number }[]>(tableExists);
  if (!table || Number(table.found) === 0) return files.map((file) => file.name);
  const rows = await db.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((row) => row.migration_name));
  return files.filter((file) => !applied.has(file.name)).map((file) => file.name);
}
