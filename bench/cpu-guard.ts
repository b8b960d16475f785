import { readFileSync } from "node:fs";

/**
 * The creep guard: a plain read (a keyed REST read, a small GraphQL query) whose server CPU per
 * request grew by more than the allowed share over its recorded figure fails the bench, so the
 * day a change adds microseconds to every request is the day it is seen. The figures live in
 * bench/cpu-record.json, beside the results table of bench/README.md that shows them.
 *
 * A host's speed moves every figure (the same code took 24 µs for the bare route on one day and
 * 11 µs on another), so the recorded figures are scaled by the bare route's CPU in the same run
 * against its CPU when they were recorded: the guard sees the code, not the host.
 */
export interface CpuRecord {
  recordedOn: string;
  allowedGrowth: number;
  /** The bare route's server CPU per request in the run the figures come from. */
  bareUsPerRequest: number;
  /** By scenario name (bench/scenarios.ts). */
  usPerRequest: Record<string, number>;
}

export const cpuRecord: CpuRecord = JSON.parse(readFileSync(new URL("./cpu-record.json", import.meta.url), "utf8"));

/** The scenarios the guard watches. */
export function guardedScenario(name: string): boolean {
  return Object.hasOwn(cpuRecord.usPerRequest, name);
}

/** A scenario's recorded figure on this run's host: scaled by the bare route's CPU now against then. */
export function expectedUs(name: string, bareUs: number, record: CpuRecord = cpuRecord): number | undefined {
  const recorded = record.usPerRequest[name];
  return recorded === undefined ? undefined : (recorded * bareUs) / record.bareUsPerRequest;
}

/** Why a scenario's measured CPU per request is over the guard, or null when it is within it (or not guarded). */
export function cpuCreep(name: string, measuredUs: number | null, bareUs: number | null, record: CpuRecord = cpuRecord): string | null {
  const recorded = record.usPerRequest[name];
  if (recorded === undefined) return null;
  if (measuredUs === null || bareUs === null) return `no server CPU figure to hold against the recorded ${recorded} µs`;
  const expected = expectedUs(name, bareUs, record)!;
  if (measuredUs <= expected * (1 + record.allowedGrowth)) return null;
  const growth = Math.round((measuredUs / expected - 1) * 100);
  return `server CPU ${Math.round(measuredUs)} µs/req is ${growth} % over the ${Math.round(expected)} µs expected (${recorded} µs recorded on ${record.recordedOn} with the bare route at ${record.bareUsPerRequest} µs, now ${Math.round(bareUs)} µs; at most +${Math.round(record.allowedGrowth * 100)} %)`;
}
