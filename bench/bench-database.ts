import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import Sqlite from "better-sqlite3";
import pg from "pg";

/** What a database holds now: on disk in all, and its searches (the OfferRequest table with its indexes). */
export interface DatabaseSize {
  /** SQLite: the file after a checkpoint (the WAL moved into it); PostgreSQL: pg_database_size. */
  totalBytes: number;
  /** SQLite: pages in use (the file less its free pages, which new rows reuse); PostgreSQL: the same as totalBytes. */
  usedBytes: number;
  /** The searches' table with its indexes (and, on PostgreSQL, its TOAST). */
  searchBytes: number;
  searches: number;
}

/** A database of the bench's own, made for a run and dropped after it. */
export interface BenchDatabase {
  url: string;
  provider: "sqlite" | "postgresql";
  size(): Promise<DatabaseSize>;
  drop(): Promise<void>;
}

/**
 * A fresh database named `name`: a SQLite file in `dir`, or, when `postgresUrl` names a
 * PostgreSQL server (BENCH_DATABASE_URL), a new database there.
 */
export async function benchDatabase(dir: string, name: string, postgresUrl: string | undefined): Promise<BenchDatabase> {
  return postgresUrl ? postgresDatabase(postgresUrl, name) : sqliteDatabase(join(dir, `${name}.db`));
}

function sqliteDatabase(file: string): BenchDatabase {
  return {
    url: `file:${file}`,
    provider: "sqlite",
    async size() {
      // A connection of our own beside the server's (WAL allows it): a passive checkpoint moves
      // what the WAL holds into the file without waiting for the server's writes.
      const connection = new Sqlite(file, { fileMustExist: true });
      try {
        connection.pragma("busy_timeout = 5000");
        connection.pragma("wal_checkpoint(PASSIVE)");
        const pageSize = connection.pragma("page_size", { simple: true }) as number;
        const pages = connection.pragma("page_count", { simple: true }) as number;
        const free = connection.pragma("freelist_count", { simple: true }) as number;
        const searchPages = connection.prepare(`SELECT COUNT(*) AS pages FROM dbstat WHERE name = 'OfferRequest' OR name LIKE 'OfferRequest\\_%' ESCAPE '\\' OR name LIKE 'sqlite_autoindex_OfferRequest%'`).get() as { pages: number };
        const { searches } = connection.prepare(`SELECT COUNT(*) AS searches FROM "OfferRequest"`).get() as { searches: number };
        return { totalBytes: existsSync(file) ? statSync(file).size : 0, usedBytes: (pages - free) * pageSize, searchBytes: searchPages.pages * pageSize, searches };
      } finally {
        connection.close();
      }
    },
    drop: async () => undefined,
  };
}

async function postgresDatabase(serverUrl: string, name: string): Promise<BenchDatabase> {
  const database = `aerogate_bench_${name}_${randomBytes(4).toString("hex")}`;
  const query = async <Row>(url: string, sql: string): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Row[];
    } finally {
      await client.end();
    }
  };
  await query(serverUrl, `CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    provider: "postgresql",
    async size() {
      const [row] = await query<{ total: string; search: string; searches: string }>(
        url.toString(),
        `SELECT pg_database_size(current_database()) AS total, pg_total_relation_size('"OfferRequest"') AS search, (SELECT COUNT(*) FROM "OfferRequest") AS searches`,
      );
      return { totalBytes: Number(row!.total), usedBytes: Number(row!.total), searchBytes: Number(row!.search), searches: Number(row!.searches) };
    },
    drop: async () => {
      await query(serverUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    },
  };
}

export const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
