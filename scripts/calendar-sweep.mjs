#!/usr/bin/env node
/**
 * `npm run test:calendar`: the suites that book, ticket, expire or page by time, run once per
 * date of a year's calendar, each run with the whole machine's clock moved to that date by
 * libfaketime (Debian's `faketime`). Every process the run starts (vitest's workers, the real
 * server as a child, its restarts) sees the same moved clock, running forward in real time.
 *
 * The dates are the ones that break date arithmetic: Christmas Eve, the turn of the year, a leap
 * day, month ends, and the daylight-saving switches of Europe, the US and Sydney, each started
 * shortly before the switch so that the run crosses it. Exits non-zero if any date fails.
 *
 *   npm run test:calendar                    # every date
 *   npm run test:calendar -- 2028-02-28      # the dates whose start begins with this text
 */
import { spawnSync } from "node:child_process";

/** When each run starts (UTC), and why that day. */
const DATES = [
  ["2026-12-24T10:00:00Z", "Christmas Eve"],
  ["2026-12-31T23:45:00Z", "New Year's Eve, crossing into 1 January"],
  ["2027-01-01T00:30:00Z", "New Year's Day"],
  ["2027-03-14T06:45:00Z", "US spring forward (07:00 UTC)"],
  ["2027-03-28T00:45:00Z", "Europe spring forward (01:00 UTC)"],
  ["2027-04-03T15:45:00Z", "Sydney falls back (16:00 UTC)"],
  ["2027-06-30T23:50:00Z", "mid-year, crossing into July"],
  ["2027-08-31T12:00:00Z", "a month's last day"],
  ["2027-10-31T00:45:00Z", "Europe falls back (01:00 UTC)"],
  ["2027-11-07T05:45:00Z", "US falls back (06:00 UTC)"],
  ["2028-02-28T22:30:00Z", "the eve of a leap day"],
  ["2028-02-29T12:00:00Z", "a leap day"],
  ["2028-12-31T23:50:00Z", "a leap year's last day, crossing into 2029"],
];

/**
 * The suites whose rules read the calendar: dates on sale, local days and daylight saving in the
 * timetable, offers' expiry, the 24-hours-before-departure rules, passengers' ages on the travel
 * date, and tenants' own clocks moved across days. Suites of races, money and webhook retries run
 * once, in `npm test`: their rules count durations, not dates. So do GraphQL's orders (the same
 * rules as orders.test.ts, which runs here, through the other transport: the dates are the
 * domain's) and pagination (a cursor's 24 hours are milliseconds, not a calendar).
 */
const SUITES = [
  "test/integration/orders.test.ts",
  "test/integration/order-crash.test.ts",
  "test/integration/offers.test.ts",
  "test/integration/holds.test.ts",
  "test/integration/search.test.ts",
  "test/integration/search-properties.test.ts",
  "test/integration/ledger-properties.test.ts",
  "test/integration/sandbox-clock.test.ts",
  "test/unit/supplier-properties.test.ts",
];

if (spawnSync("faketime", ["--version"], { stdio: "ignore" }).error) {
  console.error("test:calendar: needs libfaketime's `faketime` (Debian: apt-get install faketime)");
  process.exit(2);
}

const only = process.argv[2];
const dates = DATES.filter(([start]) => !only || start.startsWith(only));
const results = [];
for (const [start, why] of dates) {
  // A relative offset, not an absolute start: processes started later in the run keep one clock.
  const offsetSeconds = Math.round((Date.parse(start) - Date.now()) / 1000);
  console.log(`\n==> test:calendar ${start} (${why})`);
  const began = Date.now();
  const run = spawnSync("faketime", ["-f", `${offsetSeconds >= 0 ? "+" : ""}${offsetSeconds}s`, "npx", "vitest", "run", ...SUITES], {
    stdio: "inherit",
    // Timers keep real durations; only the calendar moves.
    env: { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: "1" },
  });
  results.push({ start, why, ok: run.status === 0, seconds: Math.round((Date.now() - began) / 1000) });
}

console.log("\ntest:calendar summary");
for (const { start, why, ok, seconds } of results) console.log(`  ${ok ? "passed" : "FAILED"}  ${start}  ${String(seconds).padStart(4)} s  ${why}`);
const failed = results.filter((result) => !result.ok).length;
console.log(`test:calendar: ${results.length - failed} of ${results.length} dates passed`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
