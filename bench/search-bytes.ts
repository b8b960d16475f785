import { megabytes, type BenchDatabase } from "./bench-database";
import type { EventsBenchResult } from "./events";
import type { ApiClient } from "./fixtures";

/** Searches measured, a few at a time. */
const SEARCHES = 400;
const PARALLEL = 4;
/** The target for a 48-offer search on SQLite, after a WAL checkpoint: a few kilobytes, not ~190 KB. */
const TARGET_BYTES = 20 * 1024;

/**
 * What one 48-offer search (LON→NYC, as the search scenario) adds to the database: the growth
 * over SEARCHES of them, after a checkpoint on SQLite (pages in use, so pages freed earlier and
 * reused do not hide any), pg_database_size on PostgreSQL; and the searches' table's own share
 * (rows, their TOAST and indexes).
 */
export async function measureSearchBytes(api: ApiClient, tenantKey: string, database: BenchDatabase): Promise<EventsBenchResult[]> {
  const before = await database.size();
  let offers = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < SEARCHES) {
        const n = next++;
        const date = new Date(Date.now() + (30 + (n % 30)) * 86_400_000).toISOString().slice(0, 10);
        const answer = await api.expectOk<{ data: { offers: unknown[] } }>("POST", "/v1/air/search", {
          key: tenantKey,
          body: { slices: [{ origin: "LON", destination: "NYC", departure_date: date }], passengers: [{ type: "adult" }], cabin_class: "economy", max_connections: 1 },
        });
        offers += answer.data.offers.length;
      }
    }),
  );
  const after = await database.size();
  const perSearch = (after.usedBytes - before.usedBytes) / SEARCHES;
  const searchTable = (after.searchBytes - before.searchBytes) / SEARCHES;
  const sqlite = database.provider === "sqlite";
  return [
    {
      name: `bytes per search on ${database.provider} (LON→NYC, ${(offers / SEARCHES).toFixed(1)} offers on average, ${SEARCHES} searches)`,
      value: `${(perSearch / 1024).toFixed(1)} KB ${sqlite ? "of pages in use, after a checkpoint" : "of pg_database_size"}; the searches' table ${(searchTable / 1024).toFixed(1)} KB (${megabytes(after.searchBytes)} for ${after.searches} searches)`,
      target: sqlite ? `≤ ${TARGET_BYTES / 1024} KB` : "reported",
      passed: !sqlite || perSearch <= TARGET_BYTES,
    },
  ];
}
