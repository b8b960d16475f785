import type { Prisma } from "../../db/models";
import type { RetentionRule } from "../../retention/retention-rule";
import type { DeclaredCapabilities } from "./capabilities";
import type { SupplierRef } from "./offers";
import type { Supplier } from "./supplier";

/**
 * What a connector's folder exports for each supplier it brings (docs/connectors.md): its name,
 * whether it takes the tenant's own account, and how it is made from the parts the composition
 * root hands every connector (`Parts`: what this one needs of them). The composition root lists
 * it, one line per connector (src/composition/connectors.ts).
 */
export interface Connector<Parts> {
  ref: SupplierRef;
  /** For a supplier searched and booked with the tenant's own account: how its tokens look. Absent: it needs none. */
  account?: AccountTokens;
  /** A connector written for the tests: made only when the test-only setting AEROGATE_TEST_CONNECTORS names it, never a supplier of the product. */
  testOnly?: boolean;
  create(parts: Parts): ConnectorRegistration;
}

/**
 * Who settles the fare of a supplier's orders: `wallet`, the tenant's Aerogate wallet pays the
 * order's total (and gets refunds back), as for an order of the owner's platform account at the
 * supplier; `supplier`, the tenant's own account at the supplier pays the fare (and gets its
 * refunds), and the wallet moves only Aerogate's fee.
 */
export type Settlement = "wallet" | "supplier";

/** A connector as made: the supplier, what it declares of itself, and what it keeps in our database. */
export interface ConnectorRegistration {
  supplier: Supplier;
  /** The capabilities it has (capabilities.ts), each the object answering it. */
  capabilities: DeclaredCapabilities;
  /** Whether it runs on a sandbox tenant's clock moved ahead (docs/sandbox-clock.md): a supplier living on our time does; a remote one's time cannot be moved. */
  runsOnMovedClock: boolean;
  /**
   * Who settles the fare of its orders (stored on each order when it is booked); an offer found
   * with the owner's platform account (SupplierOfferRef.account) is `wallet`-settled whatever this says.
   */
  settlement: Settlement;
  /** Whether a tenant that chose no suppliers searches it. */
  searchedByDefault: boolean;
  /** How long (ms) the gateway may give the same answer again to the same search or lowest-fares question; 0: never. */
  answersKeepMs: number;
  /** Its own tables holding tenants' rows: emptied with the tenant. */
  tenantTables?: readonly TenantTable[];
  /** How its own tables that grow with traffic are kept (docs/retention.md). */
  retention?: readonly RetentionRule[];
  /** What the supplier sends us (its webhooks), each served at `/suppliers/<supplier id>/<path>` without an API key. */
  inbound?: readonly SupplierInboundRoute[];
  /** Reads of the supplier it repeats in the background (what its webhooks would tell, for accounts whose webhooks cannot reach us). */
  polls?: readonly SupplierPoll[];
  /** How a webhook is created at the supplier for an account's own address, for a supplier whose webhooks an account creates itself. */
  accountWebhooks?: AccountWebhooks;
}

/**
 * The supplier's webhooks of one account (its token), each sending what we read to one address of
 * ours. Called outside any transaction of ours; a refusal is thrown as the catalogue's error
 * (`supplier_error` naming a refused token).
 */
export interface AccountWebhooks {
  /** Creates a webhook to `url` for the events we read: its id, and the secret it signs with (the supplier shows it only now). */
  create(token: string, url: string): Promise<{ id: string; secret: string }>;
  /**
   * Removes the account's webhooks to `url`; with `keep`, only those created before it (an
   * earlier registration's, or one an interrupted call left), never a later one. None is no error.
   */
  removeAt(token: string, url: string, keep?: string): Promise<void>;
  /** Removes the webhook `id`; one already gone is no error. */
  remove(token: string, id: string): Promise<void>;
}

/** A background read a connector repeats every `everyMs` (each process runs its own). */
export interface SupplierPoll {
  name: string;
  everyMs: number;
  /** One bounded round; true when it left work behind (a full batch), so another runs at once. */
  round(): Promise<boolean>;
}

/**
 * A request a supplier sends us, answered by its connector from the raw body (a signature is
 * over the bytes as sent). The connector checks who sent it; a refusal is thrown as the
 * catalogue's error.
 */
export interface SupplierInboundRoute {
  /** Under `/suppliers/<supplier id>/`, e.g. `webhooks`, or `webhooks/:connectionId` (a `:name` part is handed over in `params`). */
  path: string;
  handle(request: { headers: Readonly<Record<string, string | string[] | undefined>>; body: string; params: Readonly<Record<string, string>> }): Promise<{ status: number; body: unknown }>;
}

/** What a connector may tell the domain about an order its supplier changed (a webhook said so). */
export interface SupplierOrderSignals {
  /** The supplier says our order `orderId` changed: the work waiting on it (a ticketing waiting for the supplier to issue tickets) runs now instead of at its next read. */
  changed(orderId: string): Promise<void>;
  /** The supplier reports (or may report) an airline's change of our order `orderId`: its reported changes are read and recorded now. */
  airlineChanged(orderId: string): Promise<void>;
  /** The supplier says our order `orderId` was (or may have been) cancelled on its side: it is read, and a cancelled one is refunded here as our own cancellation would. */
  cancelled(orderId: string): Promise<void>;
}

/** A connector made, as the gateway registers it. */
export type RegisteredConnector = ConnectorRegistration & Pick<Connector<unknown>, "ref" | "account">;

/** How a supplier that needs the tenant's own account takes its tokens; a token is never repeated in a message. */
export interface AccountTokens {
  /** The token's mode, read from its shape, or what is wrong with it (a message naming no part of it). */
  read(token: string): { mode: "test" | "live" } | { problem: string };
  /** How a token of `mode` begins, as a refusal names it (`…_test_`). */
  prefix(mode: "test" | "live"): string;
}

/** A table holding a tenant's rows, and how they are deleted with the tenant. */
export interface TenantTable {
  table: string;
  deleteFor(tx: Prisma.TransactionClient, tenantId: string): Promise<unknown>;
}
