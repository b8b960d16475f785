import { defineConfig } from "vitest/config";
import { resolveOneGraphql } from "./vitest.resolve.ts";

/**
 * Integration suites whose every check is made before or beside storage, so PostgreSQL would
 * prove nothing SQLite did not: the request rules against /openapi.json (checked before a
 * domain call; what such requests store is the fuzz campaign's and each domain suite's, on both
 * databases), the document itself, the /docs and playground pages, the GraphQL transport's audits
 * and its limits (refused before execution), and the airport index (reference data in memory).
 */
const STORAGE_FREE = ["openapi-requests", "openapi", "docs", "playground", "graphql-protocol", "graphql-limits", "locations"].map((name) => `test/integration/${name}.test.ts`);

/**
 * `npm run test:pg`: the integration suites (less STORAGE_FREE), the migration tests and the
 * suites that only make sense on PostgreSQL (several server processes on one database), against
 * TEST_DATABASE_URL.
 */
export default defineConfig({
  resolve: resolveOneGraphql,
  test: {
    include: ["test/integration/**/*.test.ts", "test/postgres/**/*.test.ts", "test/unit/migrate.test.ts"],
    exclude: STORAGE_FREE,
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
