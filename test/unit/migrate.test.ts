import { createHash, randomUUID } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/database";
import { applyMigrations, pendingMigrations } from "../../src/db/migrate";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const adminUrl = process.env.TEST_DATABASE_URL;

/** A fresh, empty database of one provider, and how to get rid of it. */
interface Target {
  folder: "sqlite" | "postgres";
  available: boolean;
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const sqliteTarget: Target = {
  folder: "sqlite",
  available: true,
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "aerogate-migrate-"));
    return { url: `file:${join(dir, "test.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

/** Throwaway databases on the server TEST_DATABASE_URL names (an admin database there). */
const postgresTarget: Target = {
  folder: "postgres",
  available: Boolean(adminUrl),
  async create() {
    const name = `aerogate_migrate_${randomUUID().replaceAll("-", "")}`;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl ?? "");
    url.pathname = `/${name}`;
    return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
  },
};

async function withFreshDatabase(target: Target, test: (db: Database) => Promise<void>): Promise<void> {
  const { url, drop } = await target.create();
  const db = await openDatabase(url);
  try {
    await test(db);
  } finally {
    await db.close();
    await drop();
  }
}

/** The committed migrations of one provider, with the checksum Prisma would store. */
function committedMigrations(folder: Target["folder"]): { name: string; checksum: string }[] {
  const dir = join(repoRoot, "prisma", "migrations", folder);
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      checksum: createHash("sha256").update(readFileSync(join(dir, name, "migration.sql"))).digest("hex"),
    }));
}

/** A copy of the committed migrations plus extra ones, in a temp folder. */
function migrationsWith(folder: Target["folder"], extra: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "aerogate-migrations-"));
  cpSync(join(repoRoot, "prisma", "migrations", folder), dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

type HistoryRow = { migration_name: string; checksum: string; finished: unknown; rolled_back: unknown; steps: unknown };

function history(db: Database): Promise<HistoryRow[]> {
  return db.prisma.$queryRawUnsafe<HistoryRow[]>(
    `SELECT migration_name, checksum, CASE WHEN finished_at IS NULL THEN 0 ELSE 1 END AS finished,
       CASE WHEN rolled_back_at IS NULL THEN 0 ELSE 1 END AS rolled_back, applied_steps_count AS steps
     FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );
}

async function tableExists(db: Database, table: string): Promise<boolean> {
  const sql =
    db.provider === "sqlite"
      ? `SELECT COUNT(*) AS found FROM sqlite_master WHERE type = 'table' AND name = '${table}'`
      : `SELECT COUNT(*) AS found FROM pg_catalog.pg_tables WHERE tablename = '${table}'`;
  const [row] = await db.prisma.$queryRawUnsafe<{ found: unknown }[]>(sql);
  return Number(row?.found) > 0;
}

// PostgreSQL joins when TEST_DATABASE_URL names a server (npm run test:pg).
for (const target of postgresTarget.available ? [sqliteTarget, postgresTarget] : [sqliteTarget]) {
  describe(`migrations on ${target.folder}`, () => {
    const committed = committedMigrations(target.folder);

    it("applies every migration to an empty database and records Prisma's history", async () => {
      expect(committed.length).toBeGreaterThan(0);
      await withFreshDatabase(target, async (db) => {
        expect(await pendingMigrations(db)).toEqual(committed.map((m) => m.name));

        const { applied } = await applyMigrations(db);

        expect(applied).toEqual(committed.map((m) => m.name));
        expect(await pendingMigrations(db)).toEqual([]);
        const rows = await history(db);
        expect(rows.map((row) => [row.migration_name, row.checksum, Number(row.finished), Number(row.rolled_back), Number(row.steps)])).toEqual(
          committed.map((m) => [m.name, m.checksum, 1, 0, 1]),
        );
        for (const table of ["Tenant", "ApiKey", "UsageCounter", "Setting"]) expect(await tableExists(db, table)).toBe(true);
        const tenant = await db.prisma.tenant.create({
          data: { id: "ten_test", name: "Acme", email: "ops@acme.test", slug: "acme", ownerMetadata: {}, configMetadata: {} },
        });
        expect(await db.prisma.tenant.findUnique({ where: { id: tenant.id } })).toMatchObject({ status: "active", environment: "sandbox" });
      });
    });

    it("applies nothing the second time", async () => {
      await withFreshDatabase(target, async (db) => {
        await applyMigrations(db);
        expect(await applyMigrations(db)).toEqual({ applied: [] });
        expect(await history(db)).toHaveLength(committed.length);
      });
    });

    it("refuses an applied migration whose checksum no longer matches", async () => {
      await withFreshDatabase(target, async (db) => {
        await applyMigrations(db);
        await db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET checksum = '${"0".repeat(64)}'`);
        await expect(applyMigrations(db)).rejects.toThrow(/edited after it was applied/);
      });
    });

    it("rolls back a failing migration, records it as rolled back, and retries it next time", async () => {
      const migrationsDir = migrationsWith(target.folder, {
        "99990101000000_broken": `CREATE TABLE "Half" ("id" TEXT NOT NULL);\nSELECT * FROM "NoSuchTable";\n`,
      });
      try {
        await withFreshDatabase(target, async (db) => {
          await expect(applyMigrations(db, { migrationsDir })).rejects.toThrow(/99990101000000_broken failed and was rolled back/);
          expect(await tableExists(db, "Half")).toBe(false);
          expect(await tableExists(db, "Tenant")).toBe(true);
          const broken = (await history(db)).filter((row) => row.migration_name === "99990101000000_broken");
          expect(broken.map((row) => [Number(row.finished), Number(row.rolled_back)])).toEqual([[0, 1]]);
          expect(await pendingMigrations(db, { migrationsDir })).toEqual(["99990101000000_broken"]);
          await expect(applyMigrations(db, { migrationsDir })).rejects.toThrow(/failed and was rolled back/);
        });
      } finally {
        rmSync(migrationsDir, { recursive: true, force: true });
      }
    });

    /** A fresh database with every migration before `migration` applied, and a sandbox tenant `ten_s` and a live one `ten_l`. */
    async function beforeMigration(migration: string, test: (db: Database) => Promise<void>): Promise<void> {
      const before = migrationsWith(target.folder, {});
      for (const name of readdirSync(before)) if (name >= migration) rmSync(join(before, name), { recursive: true, force: true });
      try {
        await withFreshDatabase(target, async (db) => {
          await applyMigrations(db, { migrationsDir: before });
          const tenant = (id: string, environment: string) =>
            `('${id}', 'T', 't@t.test', '${id}', '${environment}', 'active', '{}', '{}', 'USD', 'UTC', false, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`;
          await db.prisma.$executeRawUnsafe(`INSERT INTO "Tenant" ("id", "name", "email", "slug", "environment", "status", "ownerMetadata", "configMetadata",
            "defaultCurrency", "timezone", "webhookEnabled", "createdAt", "updatedAt") VALUES ${tenant("ten_s", "sandbox")}, ${tenant("ten_l", "live")}`);
          await test(db);
        });
      } finally {
        rmSync(before, { recursive: true, force: true });
      }
    }

    it("gives each existing seat hold its tenant's environment, live where the tenant is unknown", async () => {
      const migration = "20261125115958_seat_intents_environments";
      await beforeMigration(migration, async (db) => {
        const hold = (holdId: string, tenantId: string) => `('${holdId}', 'ZA1@2027-01-01:LHR-JFK', 'economy', '${tenantId}', 1, CURRENT_TIMESTAMP)`;
        await db.prisma.$executeRawUnsafe(`INSERT INTO "SeatHold" ("holdId", "flightKey", "cabinClass", "tenantId", "seats", "createdAt")
          VALUES ${hold("ord_s", "ten_s")}, ${hold("ord_l", "ten_l")}, ${hold("ord_x", "ten_gone")}`);

        expect((await applyMigrations(db)).applied[0]).toBe(migration);
        const holds = await db.prisma.seatHold.findMany({ select: { holdId: true, environment: true }, orderBy: { holdId: "asc" } });
        expect(holds).toEqual([
          { holdId: "ord_l", environment: "live" },
          { holdId: "ord_s", environment: "sandbox" },
          { holdId: "ord_x", environment: "live" },
        ]);
      });
    });

    it("gives live wallets the default hold limits, and each unpaid order its flights and the seats it holds on them", async () => {
      const migration = "20261129015324_hold_limits";
      await beforeMigration(migration, async (db) => {
        await db.prisma.$executeRawUnsafe(`INSERT INTO "Wallet" ("tenantId", "currency", "balance", "updatedAt") VALUES ('ten_s', 'USD', 0, CURRENT_TIMESTAMP), ('ten_l', 'USD', 0, CURRENT_TIMESTAMP)`);
        const snapshot = JSON.stringify({ payload: { slices: [{ segments: [{ flightKey: "ZA1@2027-01-01:LHR-JFK" }] }, { segments: [{ flightKey: "ZA2@2027-01-09:JFK-LHR" }] }] } });
        const order = (id: string, status: string) =>
          `('${id}', 'ten_l', 'off_${id}', '${status}', 100, 'USD', '${snapshot}', '[]', '{}', 'ABC123', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`;
        await db.prisma.$executeRawUnsafe(`INSERT INTO "Order" ("id", "tenantId", "offerId", "status", "totalAmount", "currency", "offerSnapshot", "services", "metadata",
          "bookingReference", "createdAt", "updatedAt") VALUES ${order("ord_unpaid", "PENDING")}, ${order("ord_paid", "TICKETED")}`);
        const passenger = (orderId: string, id: string, type: string) => `('${orderId}', '${id}', 'ten_l', 0, '${type}', 'Ada', 'Lovelace', '1990-01-01', 'f', 'a@b.test', '+44', '[]')`;
        await db.prisma.$executeRawUnsafe(`INSERT INTO "OrderPassenger" ("orderId", "id", "tenantId", "position", "type", "givenName", "familyName", "bornOn", "gender", "email",
          "phoneNumber", "identityDocuments") VALUES ${passenger("ord_unpaid", "p1", "adult")}, ${passenger("ord_unpaid", "p2", "child")}, ${passenger("ord_unpaid", "p3", "infant_without_seat")}, ${passenger("ord_paid", "p1", "adult")}`);

        expect((await applyMigrations(db)).applied[0]).toBe(migration);
        const wallets = await db.prisma.wallet.findMany({ select: { tenantId: true, creditLimit: true, maxUnpaidOrders: true, maxUnpaidSeatsPerFlight: true }, orderBy: { tenantId: "asc" } });
        expect(wallets).toEqual([
          { tenantId: "ten_l", creditLimit: 0n, maxUnpaidOrders: 100, maxUnpaidSeatsPerFlight: 9 },
          { tenantId: "ten_s", creditLimit: 0n, maxUnpaidOrders: null, maxUnpaidSeatsPerFlight: null },
        ]);
        const flights = await db.prisma.orderFlight.findMany({ orderBy: { flightKey: "asc" } });
        expect(flights).toEqual([
          { orderId: "ord_unpaid", flightKey: "ZA1@2027-01-01:LHR-JFK", tenantId: "ten_l", seats: 2 },
          { orderId: "ord_unpaid", flightKey: "ZA2@2027-01-09:JFK-LHR", tenantId: "ten_l", seats: 2 },
        ]);
      });
    });

    it("stops on a failed migration that was never resolved", async () => {
      await withFreshDatabase(target, async (db) => {
        await applyMigrations(db);
        // What `prisma migrate deploy` leaves after a failure: no finished_at, no rolled_back_at.
        await db.prisma.$executeRawUnsafe(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs) VALUES ('${randomUUID()}', '${"1".repeat(64)}', 'x_failed', 'boom')`,
        );
        await expect(applyMigrations(db)).rejects.toThrow(/x_failed failed earlier and was not rolled back/);
      });
    });
  });
}

describe("SQLite specifics", () => {
  it("opens connections with WAL, synchronous=NORMAL, busy_timeout and foreign keys on", async () => {
    await withFreshDatabase(sqliteTarget, async (db) => {
      const pragma = async (name: string) => Object.values((await db.prisma.$queryRawUnsafe<object[]>(`PRAGMA ${name}`))[0] ?? {})[0];
      expect(await pragma("journal_mode")).toBe("wal");
      expect(Number(await pragma("synchronous"))).toBe(1);
      expect(Number(await pragma("busy_timeout"))).toBe(5000);
      expect(Number(await pragma("foreign_keys"))).toBe(1);
    });
  });

  it("keeps child rows when a migration redefines their parent table (foreign keys off while migrating)", async () => {
    const parentAndChild = {
      "99990101000000_parent_child": `CREATE TABLE "Parent" ("id" TEXT NOT NULL PRIMARY KEY);
CREATE TABLE "Child" ("id" TEXT NOT NULL PRIMARY KEY, "parentId" TEXT NOT NULL,
  CONSTRAINT "Child_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Parent" ("id") ON DELETE CASCADE ON UPDATE CASCADE);
`,
    };
    // Prisma's table redefinition: the DROP TABLE would cascade into Child if foreign keys were on.
    const redefineParent = {
      "99990102000000_redefine_parent": `PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Parent" ("id" TEXT NOT NULL PRIMARY KEY, "label" TEXT NOT NULL DEFAULT 'x');
INSERT INTO "new_Parent" ("id") SELECT "id" FROM "Parent";
DROP TABLE "Parent";
ALTER TABLE "new_Parent" RENAME TO "Parent";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
`,
    };
    const before = migrationsWith("sqlite", parentAndChild);
    const after = migrationsWith("sqlite", { ...parentAndChild, ...redefineParent });
    try {
      await withFreshDatabase(sqliteTarget, async (db) => {
        await applyMigrations(db, { migrationsDir: before });
        await db.prisma.$executeRawUnsafe(`INSERT INTO "Parent" ("id") VALUES ('p1')`);
        await db.prisma.$executeRawUnsafe(`INSERT INTO "Child" ("id", "parentId") VALUES ('c1', 'p1')`);

        expect((await applyMigrations(db, { migrationsDir: after })).applied).toEqual(["99990102000000_redefine_parent"]);

        const children = await db.prisma.$queryRawUnsafe<{ id: string }[]>(`SELECT "id" FROM "Child"`);
        expect(children).toEqual([{ id: "c1" }]);
      });
    } finally {
      rmSync(before, { recursive: true, force: true });
      rmSync(after, { recursive: true, force: true });
    }
  });
});
