import { readFileSync } from "node:fs";

/**
 * The creep guard: a plain read (a keyed REST read, a small GraphQL query) whose server CPU per
 * request grew by more than the allowed share over its recorded figure fails the bench, so the
 * day a change adds microseconds to every request is the day it is seen. The figures live in
 * bench/cpu-record.json, beside the results table of bench/README.md that shows them.
 */
export interface CpuRecord {
  recordedOn: string;
  allowedGrowth: number;
  /** By scenario name (bench/scenarios.ts). */
  usPerRequest: Record<string, number>;
}

export const cpuRecord: CpuRecord = JSON.parse(readFileSync(new URL("./cpu-record.json", import.meta.url), "utf8"));

/** The scenarios the guard watches. */
export function guardedScenario(name: string): boolean {
  return Object.hasOwn(cpuRecord.usPerRequest, name);
}

/** Why a scenario's measured CPU per request is over the guard, or null when it is within it (or not guarded). */
export function cpuCreep(name: string, measuredUs: number | null, record: CpuRecord = cpuRecord): string | null {
  const recorded = record.usPerRequest[name];
  if (recorded === undefined) return null;
  if (measuredUs === null) return `no server CPU figure to hold against the recorded ${recorded} µs`;
  const limit = recorded * (1 + record.allowedGrowth);
  if (measuredUs <= limit) return null;
  const growth = Math.round((measuredUs / recorded - 1) * 100);
  return `server CPU ${Math.round(measuredUs)} µs/req is ${growth} % over the ${recorded} µs recorded on ${record.recordedOn} (at most +${Math.round(record.allowedGrowth * 100)} %)`;
}
