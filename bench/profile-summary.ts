/**
 * Summarises a V8 CPU profile (from `BENCH_CPU_PROF=1 npm run bench`): self time by function and
 * by package/file, and inclusive time of our own source files, so "where does the time go"
 * has a quick answer without opening DevTools.
 *
 *   npx tsx bench/profile-summary.ts bench/results/profiles/CPU.….cpuprofile [top=25] [fromSeconds=0]
 *
 * Percentages are of busy time (idle excluded). `fromSeconds` skips the samples of the first
 * seconds of the process (start-up, module loading) to look at the load-test window only.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, fromArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const fromUs = Number(fromArg ?? 0) * 1e6;
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
const selfUs = new Map<number, number>();
let elapsedUs = 0;
let idleUs = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  elapsedUs += delta;
  if (elapsedUs < fromUs) return;
  if (idleIds.has(id)) {
    idleUs += delta;
    return;
  }
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
});
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

/** Where a frame lives: our src/bench file, a package name, node internals, or a V8 pseudo-frame. */
function place(url: string, name: string): string {
  if (!url) return `(${name || "anonymous"})`;
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const src = url.indexOf("/src/");
  if (src >= 0) return url.slice(src + 1);
  const bench = url.indexOf("/bench/");
  if (bench >= 0) return url.slice(bench + 1);
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\//, "");
}

const pct = (us: number) => `${((us / totalUs) * 100).toFixed(1).padStart(5)} %`;
const print = (title: string, entries: Array<[string, number]>) => {
  console.log(`\n${title}`);
  for (const [key, us] of entries.sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
};

const selfByFunction = new Map<string, number>();
const selfByPlace = new Map<string, number>();
const inclusiveByPlace = new Map<string, number>();
const inclusiveByFunction = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = place(url, functionName);
  const fnKey = `${functionName || "(anonymous)"}  ${where}${url ? `:${lineNumber + 1}` : ""}`;
  selfByFunction.set(fnKey, (selfByFunction.get(fnKey) ?? 0) + us);
  selfByPlace.set(where, (selfByPlace.get(where) ?? 0) + us);
  // Inclusive: each place on the stack once per sample.
  const seen = new Set<string>();
  const seenFunctions = new Set<string>();
  for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
    const frame = byId.get(cursor)!.callFrame;
    const where = place(frame.url, frame.functionName);
    seen.add(where);
    seenFunctions.add(`${frame.functionName || "(anonymous)"}  ${where}${frame.url ? `:${frame.lineNumber + 1}` : ""}`);
  }
  for (const key of seen) inclusiveByPlace.set(key, (inclusiveByPlace.get(key) ?? 0) + us);
  for (const key of seenFunctions) inclusiveByFunction.set(key, (inclusiveByFunction.get(key) ?? 0) + us);
}

console.log(`${file}: ${(totalUs / 1000).toFixed(0)} ms busy, ${(idleUs / 1000).toFixed(0)} ms idle, from ${fromUs / 1e6} s to ${(elapsedUs / 1e6).toFixed(1)} s`);
print("Self time by function", [...selfByFunction]);
print("Self time by package / file", [...selfByPlace]);
print("Inclusive time by function", [...inclusiveByFunction]);
print("Inclusive time of our files (src/)", [...inclusiveByPlace].filter(([key]) => key.startsWith("src/")));
