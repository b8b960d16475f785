import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
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
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /**
   * Called with each SQL statement the client sends (tests count queries with it). Without it
   * Prisma emits no query events at all, so production pays nothing.
   */
  onQuery?: (sql: string) => void;
}

/** Per-connection SQLite settings. WAL lets readers run beside the single writer. */
const sqlitePragmas = [
  "PRAGMA journal_mode = WAL",
  "PRAGMA synchronous = NORMAL", // durable at checkpoints; safe from corruption in WAL mode
  "PRAGMA busy_timeout = 5000", // wait for another process's write lock instead of failing at once
  "PRAGMA foreign_keys = ON", // ON DELETE CASCADE depends on it
].join(";\n");

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
 * Wraps the adapter factory so every connection it makes gets the pragmas, including a
 * connection Prisma reopens after `$disconnect()`.
 */
function withPragmas(factory: PrismaBetterSqlite3): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async (): Promise<SqlDriverAdapter> => {
      const adapter = await factory.connect();
      await adapter.executeScript(sqlitePragmas);
      return adapter;
    },
  };
}

/**
 * Opens the database `url` names: `file:…` is SQLite through better-sqlite3 (the file's directory is
 * created), `postgresql://` or `postgres://` is PostgreSQL through a `pg` pool. Connects at once so
 * a wrong URL fails at start. Does not migrate: see `applyMigrations` in ./migrate.
 */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const log = queryLogOptions(options);
  if (url.startsWith("file:")) {
    const path = sqliteFilePath(url);
    mkdirSync(dirname(path), { recursive: true });
    const adapter = withPragmas(new PrismaBetterSqlite3({ url: path }));
    return connected(new PrismaClient({ adapter, ...log }), "sqlite", url, options);
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const adapter = new PrismaPg({ connectionString: url });
    // Same models, same API: the two generated clients differ only in their provider internals.
    const prisma = new PostgresPrismaClient({ adapter, ...log }) as unknown as PrismaClient;
    return connected(prisma, "postgresql", url, options);
  }
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got ${url}`);
}

/** Query events only when someone listens for them. */
function queryLogOptions(options: DatabaseOptions): Pick<Prisma.PrismaClientOptions, "log"> {
  return options.onQuery ? { log: [{ emit: "event", level: "query" }] } : {};
}

async function connected(prisma: PrismaClient, provider: Database["provider"], url: string, options: DatabaseOptions): Promise<Database> {
  const { onQuery } = options;
  if (onQuery) (prisma as unknown as PrismaClient<"query">).$on("query", (event) => onQuery(event.query));
  await prisma.$connect();
  return { prisma, provider, url, close: () => prisma.$disconnect() };
}
