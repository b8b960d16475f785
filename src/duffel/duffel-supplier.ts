import type { Airport } from "../locations/airport";
import type { Supplier, SupplierOffer, SupplierSearch } from "../supplier/supplier";
import { onAccount, type DuffelAccount, type DuffelAccounts } from "./duffel-accounts";
import { offerRequestBody, toSupplierOffer } from "./duffel-offers";

/** A search answers at most this many of Duffel's offers, as the simulated airline does. */
const MAX_OFFERS = 50;

/**
 * A tenant's Duffel account behind today's Supplier interface where that interface fits a remote
 * airline: its search (offers in USD, our airports). Each search goes through the account, so a
 * refused token marks the connection invalid and fails the search with `supplier_error`. Bookings,
 * seats and servicing go through DuffelConnector and DuffelBookings, since the interface's other
 * calls hand back statements for our own transactions, which a remote airline cannot take part in.
 */
export class DuffelSupplier implements Pick<Supplier, "name" | "search"> {
  readonly name = "Duffel";

  constructor(
    private readonly accounts: DuffelAccounts,
    private readonly account: DuffelAccount,
    private readonly airportByIata: (code: string) => Airport | undefined,
    /** How long Duffel may wait for its airlines (a search's supplier_timeout). */
    private readonly supplierTimeoutMs: number,
  ) {}

  /** Duffel's offers for the search, at most 50, within `deadlineMs` (clock milliseconds) when given. */
  async search(request: SupplierSearch, deadlineMs?: number): Promise<SupplierOffer[]> {
    const answer = await onAccount(this.accounts, this.account, (connector) =>
      connector.createOfferRequest(offerRequestBody(request), { returnOffers: true, supplierTimeoutMs: this.supplierTimeoutMs, deadlineMs }),
    );
    const offers: SupplierOffer[] = [];
    for (const offer of answer.offers ?? []) {
      const mapped = toSupplierOffer(offer, this.airportByIata);
      if (mapped) offers.push(mapped);
      if (offers.length === MAX_OFFERS) break;
    }
    return offers;
  }
}
