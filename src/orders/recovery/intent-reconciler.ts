import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnumList } from "../../db/sql-enum";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Logger } from "../../logger";
import { PollingLoop } from "../../polling-loop";
import type { Environment } from "../../gateway/contract/air";
import type { EverySupplier } from "../../gateway/contract/gateway";
import { SEAT_OWNING_STATUSES } from "../core/order-actions";
import { finishCall, undoCall } from "./intent-calls";
import type { CallIntents, ClaimedIntent, IntentKind } from "./call-intents";

/** What the reconciler logs once it settled an intent of each kind. */
const SETTLED: Record<IntentKind, string> = {
  hold: "a booking that never committed was given back at its supplier",
  release: "a cancelled order's booking was given back for it (its process stopped, or lost the database, before giving it back)",
  sale: "seats sold for services that never committed were given back",
  exchange: "flights held for a change that never committed were given back; the booking keeps its flights",
  exchanged: "the flights a committed change left were released for it",
};

/** Intents settled per round. */
const BATCH = 50;

export interface IntentReconcilerOptions {
  /** How often the intents are read (JOB_POLL_MS): intents whose lease ran out are settled then. */
  pollMs: number;
}

/**
 * The recovery rule, whichever the supplier: after any crash, the suppliers and the orders agree.
 * Every booking a supplier holds for us is a committed order that owns its seats
 * (SEAT_OWNING_STATUSES) or given back, and every seat it sold after booking is on its order. The
 * reconciler settles the supplier calls a process left unfinished (call-intents.ts,
 * docs/supplier-contract.md):
 *
 * - before a commit that never came (the process died between the supplier's answer and the
 *   order's commit, or stalled past the lease), the call is undone: a `hold`'s booking given
 *   back, a `sale` cancelled, an `exchange` cancelled (the booking keeps its flights); the
 *   request's fenced commit, should the process wake, fails;
 * - after a commit whose supplier call was not made: a `release` intent's booking is given back,
 *   an `exchanged` intent's flights left are released;
 * - a call the supplier cannot undo (a sale paid at the supplier, its intent carrying what its
 *   commit writes) rolls forward: committed if the supplier made it, dropped if it never did.
 *
 * An intent names the order, not its supplier, so every supplier is asked (each undoes what it
 * did, if anything), under the circuit of the tenant's environment. Intents are claimed with a
 * lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so several processes never settle the same one
 * at once; every call here is safe to repeat, so a settlement cut short by a crash is simply
 * done again. On SQLite every lease ends at start (one process serves the file), so what a dead
 * process left is settled by its successor at once.
 */
export class IntentReconciler {
  readonly #loop: PollingLoop;

  constructor(
    private readonly db: Database,
    private readonly intents: CallIntents,
    private readonly suppliers: EverySupplier,
    private readonly log: Logger,
    options: IntentReconcilerOptions,
    /** Settles an intent of a call the supplier cannot undo (`commits` set): commits what it was for if the call was made, else drops it. */
    private readonly rollForward: (intent: ClaimedIntent, environment: Environment) => Promise<"completed" | "dropped">,
  ) {
    this.#loop = new PollingLoop(() => this.round(), options.pollMs, (error) => this.log.error({ err: error }, "supplier call intents could not be claimed"), db.availability);
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops polling, and resolves once the round in progress (if any) has finished. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Settles up to one batch of abandoned intents; true when a full batch was claimed (more may be due). */
  async round(): Promise<boolean> {
    const claimed = await this.intents.claimAbandoned(BATCH);
    if (claimed.length === 0) return false;
    const releasing = claimed.filter((intent) => intent.kind === "hold" || intent.kind === "release");
    const holding = releasing.length === 0 ? new Set<string>() : await this.ordersHoldingSeats(releasing.map((intent) => intent.orderId));
    const environments = await this.environmentsOf(claimed.map((intent) => intent.tenantId));
    for (const intent of claimed) {
      try {
        await this.settle(intent, environments.get(intent.tenantId) ?? "sandbox", holding.has(intent.orderId));
      } catch (error) {
        // It stays claimed, and is claimed again (by any process) when the lease is over.
        this.log.error({ err: error, orderId: intent.orderId, intentId: intent.id, kind: intent.kind }, "supplier call intent could not be settled; it will be retried");
      }
    }
    return claimed.length === BATCH;
  }

  private async settle(intent: ClaimedIntent, environment: Environment, orderHoldsSeats: boolean): Promise<void> {
    const context = { orderId: intent.orderId, intentId: intent.id, tenantId: intent.tenantId, kind: intent.kind, since: intent.createdAt.toISOString() };
    const booking = { id: intent.orderId, tenantId: intent.tenantId, environment };
    if (orderHoldsSeats && (intent.kind === "hold" || intent.kind === "release")) {
      // Never expected (the order's commit removes a hold intent; a cancellation ends the order's
      // holding): the order is the booking's owner, so it stays with it.
      this.log.warn(context, "intent of an order that holds its seats dropped; its booking kept");
    } else if (intent.commits !== null) {
      const outcome = await this.rollForward(intent, environment);
      this.log.warn(context, outcome === "completed" ? "a sale paid at the supplier whose commit was lost was committed" : "a sale paid at the supplier that was never made was dropped");
    } else {
      if (intent.kind === "release" || intent.kind === "exchanged") await finishCall(this.suppliers, intent.kind, booking, intent.id, intent.release);
      else await undoCall(this.suppliers, intent.kind, booking, intent.id);
      this.log.warn(context, SETTLED[intent.kind]);
    }
    await this.intents.settled(intent.id);
  }

  /** Each tenant's environment (a tenant gone is taken for sandbox: its calls never move a live circuit). */
  private async environmentsOf(tenantIds: string[]): Promise<Map<string, Environment>> {
    const rows = await this.db.prisma.tenant.findMany({ where: { id: { in: [...new Set(tenantIds)] } }, select: { id: true, environment: true } });
    return new Map(rows.map((row) => [row.id, row.environment]));
  }

  /** Of `orderIds`, those whose order is committed and still owns seats (SEAT_OWNING_STATUSES). */
  private async ordersHoldingSeats(orderIds: string[]): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      Sql.sql`SELECT "id" FROM "Order" WHERE "id" IN (${Sql.join(orderIds)}) AND "status" IN (${sqlEnumList(this.db.provider, "OrderStatus", SEAT_OWNING_STATUSES)})`,
    );
    return new Set(rows.map((row) => row.id));
  }
}
