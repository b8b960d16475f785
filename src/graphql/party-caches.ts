import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestContext } from "../context/request-context";
import { RecentMap } from "../recent-map";

/**
 * Whose GraphQL documents a cache entry is: one tenant (whichever of its keys sent it), or the
 * owner. Documents kept for one party never answer another, so what a tenant sent (an exact
 * query text, a persisted query's hash) cannot be learnt by another from how it is answered:
 * found or not, prepared or not, parsed already or not.
 */
export function partyOf(ctx: RequestContext): string {
  return ctx.principal.kind === "owner" ? "owner" : `tenant:${ctx.principal.tenantId}`;
}

const currentParty = new AsyncLocalStorage<string>();

/**
 * Runs `work` (Apollo answering one request) as `party`: the caches Apollo is given
 * (`PartyCache`) read and write that party's entries only. Apollo's cache interface takes a key
 * and nothing of the request, hence the async context.
 */
export function asParty<T>(party: string, work: () => T): T {
  return currentParty.run(party, work);
}

/**
 * Apollo's key-value cache interface (persisted queries, parsed documents), one namespace per
 * party. Outside `asParty` it holds nothing and finds nothing. At least `capacity` entries are
 * kept (at most twice that); values `fits` refuses are not kept, which bounds the memory a
 * client inventing documents can hold.
 */
export class PartyCache<V> {
  readonly #entries: RecentMap<string, V>;

  constructor(
    capacity: number,
    private readonly fits: (value: V) => boolean,
  ) {
    this.#entries = new RecentMap(capacity);
  }

  async get(key: string): Promise<V | undefined> {
    const party = currentParty.getStore();
    return party === undefined ? undefined : this.#entries.get(`${party}\n${key}`);
  }

  async set(key: string, value: V): Promise<void> {
    const party = currentParty.getStore();
    if (party !== undefined && this.fits(value)) this.#entries.set(`${party}\n${key}`, value);
  }

  async delete(key: string): Promise<boolean> {
    const party = currentParty.getStore();
    if (party !== undefined) this.#entries.delete(`${party}\n${key}`);
    return party !== undefined;
  }
}
