import { RecentMap } from "../recent-map";
import type { EndpointFilter } from "./webhook-delivery-queue";

/**
 * Attempts in flight at once to one destination that answers promptly: enough for one busy
 * receiver to take a backlog at full pace (8 halved the events bench's delivery rate), few enough
 * that several share the process's slots.
 */
export const PROVEN_DESTINATION_SLOTS = 32;
/** The share of all slots that destinations not (or no longer) answering promptly may hold together. */
const UNPROVEN_SHARE = 0.75;
/** Destinations remembered; a forgotten one starts over as unproven. */
const REMEMBERED_DESTINATIONS = 10_000;
/** Endpoints named in a claim that may take only proven destinations' deliveries. */
const MAX_NAMED_IN_CLAIM = 1000;

/** One attempt's hold on a slot, given back when the attempt ends. */
export interface Slot {
  endpointId: string;
  proven: boolean;
}

/**
 * The delivery attempts a process may have in flight, shared out so that receivers that are
 * slow or never answer cost only their own deliveries. A destination (a webhook endpoint: the tenant's webhook_url, or one of its endpoints)
 * is *proven* once an attempt got a complete answer within half of WEBHOOK_TIMEOUT_MS, and
 * loses that when one does not (a timeout, a network error, a slow answer). A proven destination
 * may have up to 32 attempts in flight; any other destination one at a time, and all of those
 * together three quarters of the slots at most. So a receiver that accepts the connection and
 * then trickles a byte a second, or never answers, holds one slot until its attempt is cut at
 * WEBHOOK_TIMEOUT_MS, however many deliveries wait for it; and a hundred such receivers leave
 * prompt ones their slots.
 */
export class DestinationSlots {
  readonly #inFlight = new Map<string, number>();
  readonly #proven = new RecentMap<string, boolean>(REMEMBERED_DESTINATIONS);
  #total = 0;
  #unprovenTotal = 0;
  readonly #unprovenShare: number;

  constructor(readonly capacity: number) {
    this.#unprovenShare = Math.max(1, Math.floor(capacity * UNPROVEN_SHARE));
  }

  /** Attempts that may start now, whoever they are for. */
  get room(): number {
    return this.capacity - this.#total;
  }

  /** Attempts in flight. */
  get inFlight(): number {
    return this.#total;
  }

  /**
   * Whose deliveries a claim may take now: any endpoint's but those that have no
   * slot left, or, once unproven destinations hold their whole share, only proven ones' with a
   * slot left. Null when nothing may be claimed.
   */
  claimFilter(): EndpointFilter | null {
    if (this.room <= 0) return null;
    if (this.#unprovenTotal < this.#unprovenShare) {
      return { except: [...this.#inFlight.keys()].filter((endpointId) => !this.#hasSlot(endpointId)) };
    }
    const only = new Set<string>();
    for (const endpointId of this.#proven.keys()) {
      if (only.size >= MAX_NAMED_IN_CLAIM) break;
      if (this.#proven.get(endpointId) && this.#hasSlot(endpointId)) only.add(endpointId);
    }
    return only.size > 0 ? { only: [...only] } : null;
  }

  /** How many more attempts endpoint `endpointId` may have in flight now. */
  roomFor(endpointId: string): number {
    const limit = this.#proven.get(endpointId) === true ? PROVEN_DESTINATION_SLOTS : 1;
    return Math.max(0, limit - (this.#inFlight.get(endpointId) ?? 0));
  }

  /** A slot for an attempt to endpoint `endpointId`, or null when it may not have another now. */
  take(endpointId: string): Slot | null {
    if (this.room <= 0 || !this.#hasSlot(endpointId)) return null;
    const proven = this.#proven.get(endpointId) === true;
    if (!proven && this.#unprovenTotal >= this.#unprovenShare) return null;
    this.#inFlight.set(endpointId, (this.#inFlight.get(endpointId) ?? 0) + 1);
    this.#total++;
    if (!proven) this.#unprovenTotal++;
    return { endpointId, proven };
  }

  /** Gives `slot` back; `answeredPromptly` is what the attempt showed of its destination (null: no attempt was made). */
  give(slot: Slot, answeredPromptly: boolean | null): void {
    const left = (this.#inFlight.get(slot.endpointId) ?? 1) - 1;
    if (left > 0) this.#inFlight.set(slot.endpointId, left);
    else this.#inFlight.delete(slot.endpointId);
    this.#total--;
    if (!slot.proven) this.#unprovenTotal--;
    if (answeredPromptly !== null) this.#proven.set(slot.endpointId, answeredPromptly);
  }

  #hasSlot(endpointId: string): boolean {
    return this.roomFor(endpointId) > 0;
  }
}
