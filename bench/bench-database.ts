import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";

const require = createRequire(import.meta.url);

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
    size: () => sqliteSize(file),
    drop: async () => undefined,
  };
}

/**
 * Measured on a thread of its own (the page count of the searches' table reads every page of
 * it), so that the bench's open-loop traffic keeps its pace meanwhile. A connection of our own
 * beside the server's (WAL allows it): a passive checkpoint moves what the WAL holds into the
 * file without waiting for the server's writes.
 */
function sqliteSize(file: string): Promise<DatabaseSize> {
  const measure = `
    const { parentPort, workerData } = require("node:worker_threads");
    const { statSync } = require("node:fs");
    const Sqlite = require(workerData.driver);
    const connection = new Sqlite(workerData.file, { fileMustExist: true });
    try {
      connection.pragma("busy_timeout = 5000");
      connection.pragma("wal_checkpoint(PASSIVE)");
      const pageSize = connection.pragma("page_size", { simple: true });
      const pages = connection.pragma("page_count", { simple: true });
      const free = connection.pragma("freelist_count", { simple: true });
      const searchPages = connection.prepare("SELECT COUNT(*) AS pages FROM dbstat WHERE name = 'OfferRequest' OR name LIKE 'OfferRequest%_idx' OR name LIKE 'sqlite_autoindex_OfferRequest%'").get().pages;
      const searches = connection.prepare('SELECT COUNT(*) AS searches FROM "OfferRequest"').get().searches;
      parentPort.postMessage({ totalBytes: statSync(workerData.file).size, usedBytes: (pages - free) * pageSize, searchBytes: searchPages * pageSize, searches });
    } finally {
      connection.close();
    }`;
  const worker = new Worker(measure, { eval: true, workerData: { file, driver: require.resolve("better-sqlite3") } });
  return new Promise((resolve, reject) => {
    worker.once("message", (size: DatabaseSize) => resolve(size));
    worker.once("error", reject);
    worker.once("exit", (code) => code !== 0 && reject(new Error(`the size thread exited with ${code}`)));
  });
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
