import { defineConfig } from "vitest/config";
import { resolveOneGraphql } from "./vitest.resolve.ts";

/** `npm run test:browser`: the playground, /docs and the console in Debian's Chromium (see test/browser). */
export default defineConfig({
  resolve: resolveOneGraphql,
  test: {
    include: ["test/browser/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
