// Generates both Prisma clients (src/generated/prisma-sqlite, src/generated/prisma-postgres).
// Run by `postinstall`; nothing generated is committed. Quiet on success, loud on failure.
//
// Why the environment below: the Prisma CLI wants its native schema-engine binary at start and
// tries to download it, which cannot work offline. `generate` never runs that binary; it only
// checks that the named file exists. /bin/false exists and exits 1, so any CLI command that really
// needs the engine (migrate, db push) fails loudly instead of silently doing nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { providers, repoRoot, writeSchema } from "./prisma-schema.mjs";

const require = createRequire(import.meta.url);
const prismaCli = require.resolve("prisma/build/index.js");
const engineStandIn = "/bin/false";

if (!existsSync(engineStandIn)) {
  console.error(`prisma-generate: ${engineStandIn} is missing; it stands in for the schema-engine binary`);
  process.exit(1);
}

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: engineStandIn,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1", // no version-check request to Prisma's servers
};

for (const provider of Object.keys(providers)) {
  const { path } = writeSchema(/** @type {keyof typeof providers} */ (provider));
  const result = spawnSync(process.execPath, [prismaCli, "generate", "--schema", path, "--no-hints"], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    console.error(`prisma-generate: generating the ${provider} client failed (schema: ${path})`);
    if (result.error) console.error(result.error);
    process.stderr.write(result.stdout ?? "");
    process.stderr.write(result.stderr ?? "");
    process.exit(result.status ?? 1);
  }
}
