import { clock } from "../../clock";
import { RecentMap } from "../../recent-map";
import type { Stage } from "./supplier-call";

/** Answers remembered per supplier and call: at least the 1,000 most recent searches (see RecentMap)… */
const RECENT_ANSWERS: Readonly<Record<string, number>> = { search: 1000, lowestFares: 20_000 };
/** …and for lowest fares one per route and day, so a few hundred calendars' worth. */
const RECENT_OTHER = 1000;

/**
 * The cache's stage: a call carrying a question (`cacheKey`: a search's airports, dates,
 * passenger types, cabin and connections) is answered from memory for as long as its supplier
 * lets its answers be given again (`keepMs`, declared by its connector; 0 for a supplier whose
 * answers are the tenant's own, or change by the minute), as flight APIs cache availability.
 * What a cached answer can still sell is the gateway's to ask afresh (`Availability`). Calls
 * without a question go straight through.
 */
export function answerCache(keepMs: (supplier: string) => number): Stage {
  const answers = new Map<string, RecentMap<string, { value: unknown; storedAt: number }>>();
  const memory = (supplier: string, call: string) => {
    const name = `${supplier} ${call}`;
    let entries = answers.get(name);
    if (!entries) answers.set(name, (entries = new RecentMap(RECENT_ANSWERS[call] ?? RECENT_OTHER)));
    return entries;
  };
  return async <T>(call: Parameters<Stage>[0], next: () => Promise<T>): Promise<T> => {
    const ttl = call.cacheKey === undefined ? 0 : keepMs(call.supplier);
    if (ttl === 0) return next();
    const entries = memory(call.supplier, call.name);
    const hit = entries.get(call.cacheKey!);
    if (hit && clock.nowMs() - hit.storedAt < ttl) return hit.value as T;
    const value = await next();
    entries.set(call.cacheKey!, { value, storedAt: clock.nowMs() });
    return value;
  };
}
