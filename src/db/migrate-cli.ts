// `npm run db:migrate`: applies pending migrations to DATABASE_URL (default file:./data/aerogate.db)
// and says what it applied. The server does the same at start; this is for doing it ahead of time.
import { openDatabase } from "./database";
import { applyMigrations } from "./migrate";

const url = process.env.DATABASE_URL || "file:./data/aerogate.db";

try {
  const db = await openDatabase(url);
  try {
    const { applied } = await applyMigrations(db);
    if (applied.length === 0) console.log("Database is up to date: no migration to apply.");
    for (const name of applied) console.log(`applied ${name}`);
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
