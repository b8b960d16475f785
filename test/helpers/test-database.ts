import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/**
 * Where a server on `databaseUrl` LISTENs (DATABASE_LISTEN_URL): when the suites run through a
 * transaction-pooling PgBouncer (`npm run test:pgbouncer`, which sets TEST_DATABASE_LISTEN_URL to
 * the PostgreSQL server itself), the same database on that server; otherwise nothing (the
 * server listens on DATABASE_URL).
 */
export function listenUrlFor(databaseUrl: string): string | undefined {
  const direct = process.env.TEST_DATABASE_LISTEN_URL;
  if (!direct || !/^postgres(ql)?:\/\//.test(databaseUrl)) return undefined;
  const url = new URL(direct);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
}

/**
 * A fresh, isolated database per test suite: a temporary SQLite file by default, or, when
 * `TEST_DATABASE_URL` names a PostgreSQL server (any database on it), a new database created
 * there and dropped afterwards. The same suites run on both (`npm test`, `npm run test:pg`).
 */
export interface TestDatabase {
  url: string;
  provider: "sqlite" | "postgresql";
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `aerogate_t_${randomBytes(6).toString("hex")}`;
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      provider: "postgresql",
      drop: async () => {
        const cleanup = new pg.Client({ connectionString: adminUrl });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      },
    };
  }
  return createSqliteTestDatabase(name);
}

/** A temporary SQLite file, whatever TEST_DATABASE_URL says (for SQLite-only tests). */
export function createSqliteTestDatabase(name = `aerogate_t_${randomBytes(6).toString("hex")}`): TestDatabase {
  const file = join(tmpdir(), `${name}.db`);
  return {
    url: `file:${file}`,
    provider: "sqlite",
    drop: async () => {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    },
  };
}
