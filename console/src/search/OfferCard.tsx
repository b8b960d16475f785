import { Link } from "wouter";
import type { OfferSummaryFragment } from "../generated/graphql";
import { duration, money, when } from "../ui/format";

type Condition = OfferSummaryFragment["conditions"]["changeBeforeDeparture"];

export function conditionText(condition: Condition, what: string): string {
  if (!condition.allowed) return `${what} not allowed`;
  return condition.penaltyAmount && Number(condition.penaltyAmount) > 0 ? `${what} for ${money(condition.penaltyAmount, condition.penaltyCurrency ?? "")}` : `${what} free`;
}

/** One offer beside the others: price, flights, and the conditions that tell offers apart. */
export function OfferCard({ offer }: { offer: OfferSummaryFragment }) {
  return (
    <article className="card offer" aria-labelledby={`offer-${offer.id}`}>
      <h3 id={`offer-${offer.id}`}>{offer.owner.name}</h3>
      <p className="price">{money(offer.totalAmount, offer.totalCurrency)}</p>
      <p className="hint">from {offer.supplier.name}</p>
      <p className="hint">
        fare {offer.baseAmount} + taxes {offer.taxAmount}
      </p>
      {offer.slices.map((slice) => {
        const first = slice.segments[0]!;
        const last = slice.segments[slice.segments.length - 1]!;
        return (
          <p key={slice.id}>
            <strong>
              {first.departingAt.slice(11, 16)} {slice.origin.iataCode} → {last.arrivingAt.slice(11, 16)} {slice.destination.iataCode}
            </strong>
            <br />
            <span className="hint">
              {slice.departureDate} · {duration(slice.duration)} · {slice.segments.length === 1 ? "direct" : `via ${slice.segments.slice(1).map((segment) => segment.origin.iataCode).join(", ")}`} ·{" "}
              {slice.segments.map((segment) => `${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}`).join(" ")} · {slice.fareBrandName}
            </span>
          </p>
        );
      })}
      <ul>
        <li>{conditionText(offer.conditions.changeBeforeDeparture, "Changes")}</li>
        <li>{conditionText(offer.conditions.refundBeforeDeparture, "Refunds")}</li>
        <li>{offer.paymentRequirements.requiresInstantPayment ? "Must be paid at once" : `Price held until ${when(offer.paymentRequirements.priceGuaranteeExpiresAt)}`}</li>
      </ul>
      <div className="actions">
        {offer.expired ? (
          <span className="hint">Expired: search again.</span>
        ) : (
          <Link className="button primary" href={`/book/${offer.id}`} aria-label={`Choose the ${money(offer.totalAmount, offer.totalCurrency)} offer by ${offer.owner.name}`}>
            Choose
          </Link>
        )}
      </div>
    </article>
  );
}
