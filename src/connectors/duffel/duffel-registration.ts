import type { Config } from "../../config";
import type { Database } from "../../db/database";
import type { SupplierAccounts } from "../../gateway/connections/supplier-accounts";
import type { SupplierConnectionService } from "../../gateway/connections/supplier-connections.service";
import type { Connector, SupplierOrderSignals } from "../../gateway/contract/connector";
import type { AirportIndex } from "../../locations/airport-index";
import { duffelAccounts } from "./connected-accounts";
import { DuffelReportedChanges, duffelChangesPoll } from "./duffel-airline-changes";
import { duffelBookingRetention } from "./duffel-booking-retention";
import { DuffelBookings } from "./duffel-bookings";
import { DuffelExtras } from "./duffel-extras";
import { DuffelQuotedChanges } from "./duffel-order-changes";
import { DUFFEL, DUFFEL_TOKENS } from "./duffel-ref";
import { DuffelSupplier } from "./duffel-supplier";
import { duffelAccountWebhooks } from "./duffel-webhook-registration";
import { DuffelWebhooks, duffelWebhookEventRetention } from "./duffel-webhooks";

/** What the Duffel connector takes from the composition root. */
export interface DuffelParts {
  config: Pick<Config, "DUFFEL_API_URL" | "DUFFEL_TIMEOUT_MS" | "DUFFEL_WEBHOOK_SECRET" | "DUFFEL_CHANGES_POLL_MS" | "OFFER_RETENTION_SECONDS">;
  db: Database;
  airports: AirportIndex;
  /** Tenants' connections and the owner's platform accounts: each call is made with the account that found the offer. */
  accounts: SupplierAccounts;
  /** Tenants' connections: the secret each one's webhook address is verified with. */
  connections: Pick<SupplierConnectionService, "webhookSecret">;
  /** What Duffel's webhooks and its poll wake: the work waiting on an order they name, and the reading of its airline changes. */
  orderSignals: SupplierOrderSignals;
}

/**
 * Duffel as one of the gateway's suppliers (docs/gateway.md, docs/duffel.md): searched only for a
 * tenant with a Duffel connection, with that account, and never by default; living on real time
 * (a sandbox clock moved ahead cannot reach it); its answers never given again (they are the
 * tenant's own, and its offers are booked once). Its capabilities: a hold is priced again before
 * it is paid, an order cancelled at Duffel outside our API is told, the airline's changes Duffel
 * reports are read and accepted, an offer's bags and seats are Duffel's, and order changes are
 * quoted and confirmed by Duffel.
 */
export const duffelConnector: Connector<DuffelParts> = {
  ref: DUFFEL,
  account: DUFFEL_TOKENS,
  create: (parts) => {
    const settings = { baseUrl: parts.config.DUFFEL_API_URL, timeoutMs: parts.config.DUFFEL_TIMEOUT_MS };
    const accounts = duffelAccounts(parts.accounts, settings);
    const bookings = new DuffelBookings(parts.db, accounts);
    const airportByIata = (code: string) => parts.airports.getByIata(code);
    const extras = new DuffelExtras(accounts, bookings);
    const supplier = new DuffelSupplier({ accounts, bookings, airportByIata, extras, cancelledAtDuffel: (orderId) => parts.orderSignals.cancelled(orderId) });
    return {
      supplier,
      capabilities: {
        pricedHolds: supplier,
        cancelledElsewhere: supplier,
        reportedChanges: new DuffelReportedChanges(accounts, bookings, airportByIata),
        seatSelection: extras,
        services: extras,
        quotedChanges: new DuffelQuotedChanges(bookings, airportByIata),
      },
      runsOnMovedClock: false,
      // The tenant's own Duffel account pays the fare from its Duffel balance; an offer of the owner's platform account is the wallet's (docs/duffel.md#who-settles).
      settlement: "supplier",
      searchedByDefault: false,
      answersKeepMs: 0,
      tenantTables: [{ table: "DuffelBooking", deleteFor: (tx, tenantId) => tx.duffelBooking.deleteMany({ where: { tenantId } }) }],
      retention: [duffelBookingRetention(parts.db, parts.config.OFFER_RETENTION_SECONDS * 1000), duffelWebhookEventRetention(parts.db)],
      inbound: new DuffelWebhooks(parts.db, parts.config.DUFFEL_WEBHOOK_SECRET, parts.orderSignals, (connectionId) => parts.connections.webhookSecret(DUFFEL.id, connectionId)).routes(),
      accountWebhooks: duffelAccountWebhooks(settings),
      polls: parts.config.DUFFEL_CHANGES_POLL_MS > 0 ? [duffelChangesPoll(parts.db, parts.orderSignals, parts.config.DUFFEL_CHANGES_POLL_MS)] : [],
    };
  },
};
