import { defineConfig } from "vitest/config";
import { resolveOneGraphql } from "./vitest.resolve.ts";

/**
 * `npm run test:ha`: PostgreSQL as production runs it (docs/operations.md#production-topology):
 * behind PgBouncer in transaction pooling, in front of TEST_DATABASE_URL's server, and through a
 * primary failover on a primary and replica of the suite's own. Needs Debian's postgresql and
 * pgbouncer; one suite at a time, as each starts servers of its own.
 */
export default defineConfig({
  resolve: resolveOneGraphql,
  test: {
    include: ["test/ha/**/*.test.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
