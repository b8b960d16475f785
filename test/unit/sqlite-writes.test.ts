import { statSync } from "node:fs";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import SqliteDriver from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, sqliteFilePath, type Database } from "../../src/db/database";
import { gatedSqliteAdapterFactory } from "../../src/db/sqlite-gate";
import { writeBatch } from "../../src/db/write-batch";
import { Prisma, PrismaClient } from "../../src/generated/prisma-sqlite/client";
import { createSqliteTestDatabase, type TestDatabase } from "../helpers/test-database";

let file: TestDatabase;
let db: Database;

beforeEach(async () => {
  file = createSqliteTestDatabase();
  db = await openDatabase(file.url);
  await db.prisma.$executeRawUnsafe(`CREATE TABLE "Note" ("id" INTEGER PRIMARY KEY, "text" TEXT NOT NULL)`);
});

afterEach(async () => {
  await db.close();
  await file.drop();
});

const insertNote = (id: number, text = "x") => Prisma.sql`INSERT INTO "Note" ("id", "text") VALUES (${id}, ${text})`;
const noteIds = async () => (await db.prisma.$queryRawUnsafe<Array<{ id: bigint }>>(`SELECT "id" FROM "Note" ORDER BY "id"`)).map((row) => Number(row.id));

/** Resolves on the next turn of the event loop, after every pending callback of this one. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Starts a Prisma transaction that writes note `id`, then waits, and rolls back on `release()`.
 * Resolves `inside` once the transaction is open and has written.
 */
function openTransaction(prisma: Database["prisma"], id: number) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const inside = new Promise<void>((resolve) => (started = resolve));
  const done = prisma.$transaction(async (tx) => {
    await tx.$executeRaw(insertNote(id));
    started();
    await held;
    throw new Error("roll back");
  });
  return { inside, release, done };
}

describe("writeBatch on SQLite", () => {
  it("writes on Prisma's own connection and returns each statement's row count", async () => {
    expect(db.sqlite).not.toBeNull();
    await expect(writeBatch(db, [insertNote(1), Prisma.sql`UPDATE "Note" SET "text" = 'y' WHERE "id" IN (1, 2)`])).resolves.toEqual([1, 1]);
    expect(await noteIds()).toEqual([1]);
  });

  it("is atomic: a failing statement leaves nothing of the batch", async () => {
    await writeBatch(db, [insertNote(1)]);
    await expect(writeBatch(db, [insertNote(2), insertNote(1)])).rejects.toThrow(/UNIQUE/);
    expect(await noteIds()).toEqual([1]);
  });
});

describe("the SQLite connection gate", () => {
  it("keeps every statement out of another request's open transaction: plain writes survive its rollback", async () => {
    const transaction = openTransaction(db.prisma, 1);
    await transaction.inside;
    let finished = 0;
    const writes = [
      db.prisma.$executeRaw(insertNote(2)).then(() => finished++),
      db.prisma.$executeRawUnsafe(`INSERT INTO "Note" ("id", "text") VALUES (3, 'unsafe')`).then(() => finished++),
      writeBatch(db, [insertNote(4)]).then(() => finished++),
      db.sqlite!.run((connection) => connection.prepare(`INSERT INTO "Note" ("id", "text") VALUES (5, 'direct')`).run()).then(() => finished++),
    ];
    await nextTurn();
    expect(finished, "no write may run while the transaction holds the connection").toBe(0);
    transaction.release();
    await expect(transaction.done).rejects.toThrow("roll back");
    await Promise.all(writes);
    // Had any write run inside the transaction, the rollback would have taken it with it.
    expect(await noteIds()).toEqual([2, 3, 4, 5]);
  });

  it("runs a waiting transaction after the one before it, not inside it", async () => {
    const first = openTransaction(db.prisma, 1);
    await first.inside;
    const second = db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw(insertNote(2));
    });
    first.release();
    await expect(first.done).rejects.toThrow("roll back");
    await second;
    expect(await noteIds()).toEqual([2]);
  });

  it("after a SQLITE_BUSY at COMMIT, rolls the transaction back and leaves later writes and transactions working", async () => {
    // In WAL mode a commit does not wait for readers; with a rollback journal it needs every
    // reader gone, so a reader holding its lock makes COMMIT fail with SQLITE_BUSY, and SQLite
    // then keeps the transaction open.
    const path = sqliteFilePath(file.url);
    const pragmas = "PRAGMA journal_mode = DELETE; PRAGMA busy_timeout = 50";
    const prisma = new PrismaClient({ adapter: gatedSqliteAdapterFactory(new PrismaBetterSqlite3({ url: path }), pragmas, () => undefined) });
    const reader = new SqliteDriver(path);
    const observer = new SqliteDriver(path);
    const seen = () => observer.prepare(`SELECT "id" FROM "Note" ORDER BY "id"`).all().map((row) => (row as { id: number }).id);
    try {
      await db.close(); // the WAL-mode server connection would hold the file in WAL mode
      await prisma.$connect();
      expect(await prisma.$queryRawUnsafe(`PRAGMA journal_mode`)).toEqual([{ journal_mode: "delete" }]);
      reader.exec("BEGIN");
      reader.prepare(`SELECT COUNT(*) FROM "Note"`).get();
      let wrote = false;
      const failed = prisma.$transaction(async (tx) => {
        await tx.$executeRaw(insertNote(1));
        wrote = true;
      });
      // The insert itself succeeded: the failure is the COMMIT's.
      await expect(failed).rejects.toMatchObject({ cause: { originalCode: "SQLITE_BUSY" } });
      expect(wrote).toBe(true);
      reader.exec("COMMIT");

      await prisma.$executeRaw(insertNote(2));
      await prisma.$transaction(async (tx) => {
        await tx.$executeRaw(insertNote(3));
      });
      // Another connection sees the later writes committed, and nothing of the failed transaction.
      expect(seen()).toEqual([2, 3]);
    } finally {
      reader.close();
      observer.close();
      await prisma.$disconnect();
      db = await openDatabase(file.url);
    }
  });
});

describe("SQLite checkpoints", () => {
  it("are off on the connection and done by the checkpoint thread", async () => {
    expect(await db.sqlite!.run((connection) => connection.pragma("wal_autocheckpoint", { simple: true }))).toBe(0n); // the adapter reads integers as BigInt
    const databaseFile = sqliteFilePath(file.url);
    const sizeBefore = statSync(databaseFile).size;
    const text = "x".repeat(4000);
    for (let id = 1; id <= 200; id++) await writeBatch(db, [insertNote(id, text)]);
    // Pages reach the database file only through a checkpoint; the thread runs every 100 ms.
    const deadline = Date.now() + 10_000;
    while (statSync(databaseFile).size < sizeBefore + 200 * 4000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statSync(databaseFile).size).toBeGreaterThanOrEqual(sizeBefore + 200 * 4000);
  });

  it("let the WAL start over under a steady writer instead of growing without bound", async () => {
    const wal = `${sqliteFilePath(file.url)}-wal`;
    const text = "x".repeat(4000);
    let largest = 0;
    let shrank = false;
    // One-page rows back to back, the event loop turning every 100 rows as on a busy server,
    // until the WAL file is cut back, which happens only when the WAL starts over.
    for (let id = 1; !shrank && id <= 100_000; id++) {
      await writeBatch(db, [insertNote(id, text)]);
      if (id % 100 !== 0) continue;
      await nextTurn();
      const size = statSync(wal).size;
      shrank = size < largest;
      largest = Math.max(largest, size);
    }
    expect(shrank).toBe(true);
  });
});
