import { statSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, sqliteFilePath, type Database } from "../../src/db/database";
import { writeBatch } from "../../src/db/write-batch";
import { Prisma } from "../../src/generated/prisma-sqlite/client";
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

describe("writeBatch on SQLite", () => {
  it("writes on Prisma's own connection and returns each statement's row count", async () => {
    expect(db.sqliteConnection()).not.toBeNull();
    await expect(writeBatch(db, [insertNote(1), Prisma.sql`UPDATE "Note" SET "text" = 'y' WHERE "id" IN (1, 2)`])).resolves.toEqual([1, 1]);
    expect(await noteIds()).toEqual([1]);
  });

  it("is atomic: a failing statement leaves nothing of the batch", async () => {
    await writeBatch(db, [insertNote(1)]);
    await expect(writeBatch(db, [insertNote(2), insertNote(1)])).rejects.toThrow(/UNIQUE/);
    expect(await noteIds()).toEqual([1]);
  });

  it("waits behind an open Prisma transaction instead of joining it", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const transaction = db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw(insertNote(1));
      started();
      await held;
      throw new Error("roll back");
    });
    await inside;
    let written = false;
    const batch = writeBatch(db, [insertNote(2)]).then(() => (written = true));
    await nextTurn();
    expect(written).toBe(false);
    release();
    await expect(transaction).rejects.toThrow("roll back");
    await batch;
    // Had the batch run inside the transaction, the rollback would have taken note 2 with it.
    expect(await noteIds()).toEqual([2]);
  });
});

describe("SQLite checkpoints", () => {
  it("are off on the connection and done by the checkpoint thread", async () => {
    expect(db.sqliteConnection()!.pragma("wal_autocheckpoint", { simple: true })).toBe(0n); // the adapter reads integers as BigInt
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
