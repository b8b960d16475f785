import { defineConfig } from "vitest/config";

/** `npm run test:browser`: the playground in Debian's Chromium (see test/browser). */
export default defineConfig({
  test: {
    include: ["test/browser/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
