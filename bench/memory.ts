import { execFileSync } from "node:child_process";

const AIRPORT_INDEX_LIMIT_MB = 50;

/** The airport index's heap, measured in a fresh process (bench/airport-heap.ts) so nothing else counts. */
export function measureAirportIndexHeap(rootDir: string): { airports: number; heapMb: number; limitMb: number; passed: boolean } {
  const output = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "bench/airport-heap.ts"], { cwd: rootDir, encoding: "utf8" });
  const { airports, heapMb } = JSON.parse(output.trim().split("\n").at(-1)!) as { airports: number; heapMb: number };
  return { airports, heapMb, limitMb: AIRPORT_INDEX_LIMIT_MB, passed: heapMb < AIRPORT_INDEX_LIMIT_MB };
}
