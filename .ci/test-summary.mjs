#!/usr/bin/env node
/**
 * Adds up vitest JSON reports (`--reporter=json --outputFile.json=…`) given as arguments and
 * prints one line per run, then the closing line `aerogate: N passed, N failed[, N skipped]`.
 * A report that is missing or unreadable (vitest crashed before writing it) is named and left
 * out of the counts; the step itself has already been marked failed by .ci/run.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const name = basename(file).replace(/\.vitest\.json$/, "");
  if (!existsSync(file)) {
    console.log(`  ${name}: no report`);
    continue;
  }
  try {
    const report = JSON.parse(readFileSync(file, "utf8"));
    const p = report.numPassedTests ?? 0;
    const f = report.numFailedTests ?? 0;
    const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A suite that failed to load (syntax error, import failure) has no failed test of its own.
    const brokenFiles = (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).every((a) => a.status !== "failed"));
    passed += p;
    failed += f + brokenFiles.length;
    skipped += s;
    console.log(`  ${name}: ${p} passed, ${f} failed, ${s} skipped${brokenFiles.length ? `, ${brokenFiles.length} test file(s) failed to run: ${brokenFiles.map((r) => r.name).join(", ")}` : ""}`);
  } catch (error) {
    console.log(`  ${name}: unreadable report (${error.message})`);
  }
}
console.log(`aerogate: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
