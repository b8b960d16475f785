import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cpuCreep, cpuRecord } from "../../bench/cpu-guard";
import { scenarios } from "../../bench/scenarios";

/** The results table of bench/README.md: each row's first cell and its server CPU cell. */
function readmeCpuColumn(): Map<string, string> {
  const readme = readFileSync(new URL("../../bench/README.md", import.meta.url), "utf8");
  const results = readme.slice(readme.indexOf("## Results"), readme.indexOf("## Where the time goes"));
  const rows = results.split("\n").filter((line) => line.startsWith("| "));
  return new Map(rows.map((row) => row.split("|").map((cell) => cell.trim())).map((cells) => [cells[1]!, cells[3]!]));
}

/** How the README's table names each guarded scenario. */
const README_ROWS: Record<string, string> = {
  "GET /v1/tenant": "`GET /v1/tenant`",
  "POST /graphql { viewer { kind tenant { id name } } }": "GraphQL `{ viewer { … } }`",
  "GET /v1/air/locations?query=lon": "`GET /v1/air/locations?query=lon`",
  "GET /v1/air/offers/:id": "`GET /v1/air/offers/:id`",
  "POST /graphql { offer(id) { … } }": "GraphQL `{ offer(id) { … } }`",
  "GET /v1/air/orders/:id": "`GET /v1/air/orders/:id`",
};

describe("the bench's CPU guard", () => {
  it("guards scenarios the bench runs, by the figures bench/README.md's table shows", () => {
    const names = new Set(scenarios.map((scenario) => scenario.name));
    const table = readmeCpuColumn();
    expect(Object.keys(cpuRecord.usPerRequest).sort()).toEqual(Object.keys(README_ROWS).sort());
    for (const [name, us] of Object.entries(cpuRecord.usPerRequest)) {
      expect(names.has(name), name).toBe(true);
      expect(table.get(README_ROWS[name]!), name).toBe(`${us} µs`);
    }
  });

  it("fails a plain read more than 20 % over its figure, and only that", () => {
    const record = { recordedOn: "2026-11-28", allowedGrowth: 0.2, bareUsPerRequest: 20, usPerRequest: { "GET /v1/tenant": 100 } };
    expect(cpuCreep("GET /v1/tenant", 119, 20, record)).toBeNull();
    expect(cpuCreep("GET /v1/tenant", 120, 20, record)).toBeNull();
    expect(cpuCreep("GET /v1/tenant", 121, 20, record)).toBe(
      "server CPU 121 µs/req is 21 % over the 100 µs expected (100 µs recorded on 2026-11-28 with the bare route at 20 µs, now 20 µs; at most +20 %)",
    );
    expect(cpuCreep("GET /v1/tenant", null, 20, record)).toContain("no server CPU figure");
    expect(cpuCreep("GET /v1/tenant", 100, null, record)).toContain("no server CPU figure");
    expect(cpuCreep("POST /v1/air/search", 5000, 20, record)).toBeNull();
  });

  it("scales the recorded figures by the host's speed, which the bare route in the same run shows", () => {
    const record = { recordedOn: "2026-11-28", allowedGrowth: 0.2, bareUsPerRequest: 20, usPerRequest: { "GET /v1/tenant": 100 } };
    // A host twice as fast: the bare route at 10 µs, so 60 µs is the most the read may take.
    expect(cpuCreep("GET /v1/tenant", 60, 10, record)).toBeNull();
    expect(cpuCreep("GET /v1/tenant", 61, 10, record)).toContain("is 22 % over the 50 µs expected");
    // A host half as fast lets the read take twice as long, and no more.
    expect(cpuCreep("GET /v1/tenant", 240, 40, record)).toBeNull();
    expect(cpuCreep("GET /v1/tenant", 241, 40, record)).toContain("over the 200 µs expected");
  });
});
