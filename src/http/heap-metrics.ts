import { PerformanceObserver, constants } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { Gauge, type Registry } from "prom-client";

/** The heap in use just after the last major GC (NaN before the first): what the process keeps. */
let usedAfterMajorGc = Number.NaN;
let observing = false;

function observeMajorGcs(): void {
  if (observing) return;
  observing = true;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) usedAfterMajorGc = getHeapStatistics().used_heap_size;
    }
  }).observe({ entryTypes: ["gc"] });
}

/**
 * `aerogate_heap_used_after_major_gc_bytes`: the heap a major GC left. Heap used swings with the
 * GC's phase (hundreds of MB between two collections under load), so its trend says little; what
 * survives a major collection is what the process keeps, and its trend shows a leak.
 */
export function registerHeapMetrics(registry: Registry): void {
  observeMajorGcs();
  new Gauge({
    name: "aerogate_heap_used_after_major_gc_bytes",
    help: "Heap in use just after the last major (mark-sweep-compact) garbage collection.",
    registers: [registry],
    collect() {
      if (!Number.isNaN(usedAfterMajorGc)) this.set(usedAfterMajorGc);
    },
  });
}
