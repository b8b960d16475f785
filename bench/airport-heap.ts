/**
 * Heap held by the airport index (target < 50 MB): run in a fresh process with --expose-gc by
 * `npm run bench`, which prints the figure beside the load results. Prints one JSON line.
 */
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (!collectGarbage) throw new Error("run with node --expose-gc");

collectGarbage();
const before = process.memoryUsage().heapUsed;
const { airportIndex } = await import("../src/locations/airport-index");
const index = airportIndex();
collectGarbage();
const after = process.memoryUsage().heapUsed;
// Keep the index reachable until measured.
console.log(JSON.stringify({ airports: index.airports.length, heapMb: Math.round(((after - before) / 1024 / 1024) * 10) / 10 }));
export {};
