import { defineConfig } from "vitest/config";
import { resolveOneGraphql } from "./vitest.resolve.ts";

/**
 * `npm run test:pg`: the integration suites, the migration tests and the suites that only make
 * sense on PostgreSQL (several server processes on one database), against TEST_DATABASE_URL.
 */
export default defineConfig({
  resolve: resolveOneGraphql,
  test: {
    include: ["test/integration/**/*.test.ts", "test/postgres/**/*.test.ts", "test/unit/migrate.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
