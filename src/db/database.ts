import { mkdirSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Database as SqliteConnection } from "better-sqlite3";
import { DatabaseAvailability } from "./availability";
import { describePostgres } from "./postgres-url";
import { PrimaryLocator } from "./primary-locator";
import { SqliteCheckpointer } from "./sqlite-checkpointer";
import { useBackslashEscapedLike } from "./sqlite-like";
import { gatedSqliteAdapterFactory, type SqliteGate } from "./sqlite-gate";
import { watchedAdapterFactory } from "./watched-adapter";
import { PrismaClient, type Prisma } from "../generated/prisma-sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "../generated/prisma-postgres/client";

/** An open database: one Prisma client, whichever provider `DATABASE_URL` selected. */
export interface Database {
  /**
   * Typed with the SQLite-generated client; the PostgreSQL one has the same model API.
   * Raw SQL: `prisma.$queryRawUnsafe` / `$executeRawUnsafe` (one statement per call).
   */
  prisma: PrismaClient;
  provider: "sqlite" | "postgresql";
  url: string;
  /** SQLite only (null on PostgreSQL): direct use of the connection Prisma uses, for hot paths. */
  sqlite: SqliteAccess | null;
  /** Whether the database can be reached (and has room), as every statement reports it. */
  availability: DatabaseAvailability;
  /** PostgreSQL only (null on SQLite): the host of the URL that is the primary, which every connection goes to. */
  primary: PrimaryLocator | null;
  close(): Promise<void>;
}

/**
 * The better-sqlite3 connection behind Prisma, shared by every request of the process. Prisma's
 * own statements and these pass the same gate (sqlite-gate.ts), so none of them ever runs inside
 * another request's transaction.
 */
export interface SqliteAccess {
  /** Runs synchronous `work` on the connection as soon as no transaction holds it (at once when free). */
  run<T>(work: (connection: SqliteConnection) => T): Promise<T>;
}

export interface DatabaseOptions {
  /**
   * Called with each SQL statement the client sends (tests count queries with it). Without it
   * Prisma emits no query events at all, so production pays nothing.
   */
  onQuery?: (sql: string) => void;
  /** PostgreSQL: the pool's connections at most (DATABASE_POOL_SIZE; `pg`'s 10 by default). */
  poolSize?: number;
}

/** Per-connection SQLite settings. WAL lets readers run beside the single writer. */
const sqlitePragmas = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL", // durable at checkpoints; safe from corruption in WAL mode
  "PRAGMA busy_timeout = 5000", // wait for another process's write lock instead of failing at once
  "PRAGMA foreign_keys = ON", // ON DELETE CASCADE depends on it
  "PRAGMA journal_size_limit = 4194304", // a WAL starting over is cut back to 4 MB
].join(";\n");

/**
 * How long opening a PostgreSQL connection may take (pool and probe): past it, the database is
 * treated as unreachable instead of the request waiting on the network.
 */
const POSTGRES_CONNECT_TIMEOUT_MS = 5000;

/** The database `url` names, for log lines and messages: provider, hosts, port and name, never credentials. */
export function describeDatabase(url: string): string {
  if (url.startsWith("file:")) return `SQLite file ${sqliteFilePath(url)}`;
  return describePostgres(url);
}

/**
 * Answers whether PostgreSQL at `url` has a writable primary among its hosts, on connections of
 * its own (primary-locator.ts); throws a database fault of kind `unreachable` while it has none.
 */
export async function probePostgres(url: string): Promise<void> {
  await new PrimaryLocator(url, POSTGRES_CONNECT_TIMEOUT_MS).locate();
}

/**
 * Resolves a SQLite URL (`file:./data/aerogate.db`, relative to the cwd, or `file:/abs/x.db`) to an
 * absolute file path. In-memory databases are refused: the migration runner opens its own
 * connection, which would see a different, empty database.
 */
export function sqliteFilePath(url: string): string {
  const withoutQuery = url.replace(/\?.*$/, "");
  const path = withoutQuery.startsWith("file://")
    ? fileURLToPath(withoutQuery)
    : withoutQuery.replace(/^file:/, "");
  if (path === "" || path.includes(":memory:")) {
    throw new Error(`DATABASE_URL ${url}: use a SQLite file (e.g. file:./data/aerogate.db), not an in-memory database`);
  }
  return resolve(path);
}

/**
 * Opens the database `url` names: `file:…` is SQLite through better-sqlite3 (the file's directory is
 * created), `postgresql://` or `postgres://` is PostgreSQL through a `pg` pool. Connects at once so
 * a wrong URL fails at start. Does not migrate: see `applyMigrations` in ./migrate.
 */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  if (url.startsWith("file:")) return openSqlite(url, options);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got ${url.split(":")[0]}:…`);
}

/**
 * PostgreSQL through a `pg` pool whose connections all go to the primary among the URL's hosts
 * (one host or several: primary-locator.ts); the availability's probe looks for it again after
 * a fault, so a failover is followed without a restart.
 */
async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const primary = new PrimaryLocator(url, POSTGRES_CONNECT_TIMEOUT_MS);
  const availability = new DatabaseAvailability(() => primary.locate(), primary.description);
  await primary.locate();
  // keepAlive: a connection whose peer vanished is noticed instead of waited on for ever.
  const pool = { Client: primary.poolClient(), max: options.poolSize ?? 10, connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS, keepAlive: true };
  const adapter = watchedAdapterFactory(new PrismaPg(pool as ConstructorParameters<typeof PrismaPg>[0]), availability);
  // Same models, same API: the two generated clients differ only in their provider internals.
  const prisma = new PostgresPrismaClient({ adapter, ...queryLogOptions(options) }) as unknown as PrismaClient;
  return connected(prisma, "postgresql", url, options, null, availability, primary);
}

/**
 * SQLite through Prisma's better-sqlite3 adapter, with WAL checkpoints moved off the event loop
 * to a `SqliteCheckpointer` thread (back on the connection if that thread fails).
 */
async function openSqlite(url: string, options: DatabaseOptions): Promise<Database> {
  const path = sqliteFilePath(url);
  mkdirSync(dirname(path), { recursive: true });
  let current: { connection: SqliteConnection; gate: SqliteGate } | null = null;
  let checkpointer: SqliteCheckpointer | null = null;
  const setCheckpointMode = () => current?.connection.open && current.connection.pragma(`wal_autocheckpoint = ${checkpointer?.running ? 0 : 1000}`);
  const sqlite: SqliteAccess = {
    run: (work) => {
      if (!current) return Promise.reject(new Error("the SQLite connection is not open"));
      const { connection, gate } = current;
      return gate.run(() => work(connection));
    },
  };
  // A file does not go away: the probe only confirms the connection answers.
  const availability = new DatabaseAvailability(() => sqlite.run((connection) => void connection.prepare("SELECT 1").get()), describeDatabase(url), () => sqliteHasRoom(sqlite, path));
  const gated = gatedSqliteAdapterFactory(new PrismaBetterSqlite3({ url: path }), sqlitePragmas, (connection, gate) => {
    current = { connection, gate };
    useBackslashEscapedLike(connection);
    setCheckpointMode();
  });
  const adapter = watchedAdapterFactory(gated, availability);
  const db = await connected(new PrismaClient({ adapter, ...queryLogOptions(options) }), "sqlite", url, options, sqlite, availability, null);
  const started = SqliteCheckpointer.start(path, {
    onFailure: (error) => {
      process.emitWarning(`SQLite checkpoint thread failed, checkpointing on the connection again: ${error.message}`);
      setCheckpointMode();
    },
    // Between two writes nothing is appended, so this checkpoint completes and the next write
    // starts the WAL over; the gate keeps it out of any open transaction.
    onLongWal: () => void sqlite.run((connection) => connection.open && connection.pragma("wal_checkpoint(PASSIVE)")).catch(() => undefined),
  });
  checkpointer = started;
  setCheckpointMode();
  return {
    ...db,
    close: async () => {
      await started.stop();
      await db.close();
    },
  };
}

/** Free space below this on the database's disk is no room: SQLite would soon answer SQLITE_FULL. */
const MIN_FREE_DISK_BYTES = 1024 * 1024;

/** Whether the SQLite file may grow: under its page limit (max_page_count), with space left on its disk. */
async function sqliteHasRoom(sqlite: SqliteAccess, path: string): Promise<boolean> {
  const pages = await sqlite.run((connection) => ({ used: connection.pragma("page_count", { simple: true }) as number, limit: connection.pragma("max_page_count", { simple: true }) as number }));
  if (pages.used >= pages.limit) return false;
  const disk = await statfs(dirname(path));
  return disk.bavail * disk.bsize >= MIN_FREE_DISK_BYTES;
}

/** Query events only when someone listens for them. */
function queryLogOptions(options: DatabaseOptions): Pick<Prisma.PrismaClientOptions, "log"> {
  return options.onQuery ? { log: [{ emit: "event", level: "query" }] } : {};
}

async function connected(
  prisma: PrismaClient,
  provider: Database["provider"],
  url: string,
  options: DatabaseOptions,
  sqlite: SqliteAccess | null,
  availability: DatabaseAvailability,
  primary: PrimaryLocator | null,
): Promise<Database> {
  const { onQuery } = options;
  if (onQuery) (prisma as unknown as PrismaClient<"query">).$on("query", (event) => onQuery(event.query));
  await prisma.$connect();
  return {
    prisma,
    provider,
    url,
    sqlite,
    availability,
    primary,
    close: async () => {
      availability.close();
      await prisma.$disconnect();
    },
  };
}
