import { defineConfig } from "vitest/config";
import { resolveOneGraphql } from "./vitest.resolve.ts";

export default defineConfig({
  resolve: resolveOneGraphql,
  test: {
    include: ["test/unit/**/*.test.ts", "test/integration/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
