import type { LoadResult } from "./load";
import type { Target } from "./scenarios";

export interface ScenarioOutcome {
  name: string;
  method: string;
  path: string;
  server: "app" | "bare" | "apollo" | "limited";
  baseline: boolean;
  target: Target | null;
  load: LoadResult | null;
  /** req/s divided by the baseline's req/s. */
  ratio: number | null;
  /**
   * CPU the server process used during the measured run (Linux /proc): per request, and as a
   * share of one core. Less sensitive to other load on the machine than req/s.
   */
  serverCpu: { usPerRequest: number; coreShare: number } | null;
  /** Each measured run (one per round). */
  runs: Array<{ rps: number; p50Ms: number; p99Ms: number; ratio: number | null; serverCpuUsPerRequest: number | null }>;
  /** CPU the bench process (autocannon) used, as a share of one core: near 100 % means the client limits the run. */
  clientCoreShare: number | null;
  passed: boolean;
  problems: string[];
}

export function describeTarget(target: Target | null, baseline = false): string {
  if (baseline) return "baseline";
  if (!target) return "no errors";
  if ("minRatio" in target) return `≥ ${Math.round(target.minRatio * 100)} % of bare`;
  if ("maxP50Ms" in target) return `p50 ≤ ${target.maxP50Ms} ms, ≥ ${target.minRps} req/s`;
  if ("minShareOf" in target) return `≥ ${Math.round(target.share * 100)} % of "${target.minShareOf}"`;
  return `≥ ${target.minRps} req/s`;
}

/** Every reason the scenario fails: errors, non-2xx answers, a failed check, a missed target. */
export function judge(load: LoadResult, ratio: number | null, target: Target | null, ratioOf: (scenario: string) => number | null = () => null): string[] {
  const problems: string[] = [];
  if (load.completed === 0) problems.push("no responses");
  if (load.errors > 0) problems.push(`${load.errors} connection errors`);
  if (load.timeouts > 0) problems.push(`${load.timeouts} timeouts`);
  if (load.non2xx > 0) {
    const codes = Object.entries(load.statusCodes)
      .filter(([code]) => !code.startsWith("2"))
      .map(([code, count]) => `${count}×${code}`)
      .join(", ");
    problems.push(`${load.non2xx} non-2xx (${codes})`);
  }
  if (target && "minRatio" in target) {
    if (ratio === null) problems.push("no baseline to compare with");
    else if (ratio < target.minRatio) problems.push(`ratio ${pct(ratio)} < ${pct(target.minRatio)}`);
  }
  if (target && "minShareOf" in target) {
    const reference = ratioOf(target.minShareOf);
    if (ratio === null || reference === null) problems.push(`no figure of "${target.minShareOf}" to compare with`);
    else if (ratio / reference < target.share) problems.push(`${pct(ratio / reference)} of "${target.minShareOf}" < ${pct(target.share)}`);
  }
  if (target && "maxP50Ms" in target && load.p50Ms > target.maxP50Ms) problems.push(`p50 ${load.p50Ms.toFixed(2)} ms > ${target.maxP50Ms} ms`);
  if (target && "minRps" in target && load.rps < target.minRps) problems.push(`${Math.round(load.rps)} req/s < ${target.minRps}`);
  return problems;
}

function pct(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** The side-by-side table printed at the end of a run. */
export function formatTable(outcomes: ScenarioOutcome[]): string {
  const header = ["scenario", "req/s", "p50 ms", "p99 ms", "vs bare", "server CPU µs/req", "target", "result"];
  const rows = outcomes.map((o) => [
    o.name,
    o.load ? Math.round(o.load.rps).toLocaleString("en-US") : "—",
    o.load ? o.load.p50Ms.toFixed(2) : "—",
    o.load ? o.load.p99Ms.toFixed(2) : "—",
    o.ratio === null ? "—" : pct(o.ratio),
    o.serverCpu ? `${Math.round(o.serverCpu.usPerRequest)} (${Math.round(o.serverCpu.coreShare * 100)} % core)` : "—",
    describeTarget(o.target, o.baseline),
    o.passed ? "pass" : `FAIL: ${o.problems.join("; ")}`,
  ]);
  const numeric = new Set([1, 2, 3, 4, 5]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    "| " + cells.map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join(" | ") + " |";
  const rule = "|" + widths.map((w, i) => (numeric.has(i) ? "-".repeat(w + 1) + ":" : "-".repeat(w + 2))).join("|") + "|";
  return [line(header), rule, ...rows.map(line)].join("\n");
}
