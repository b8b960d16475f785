import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { Link, useLocation, useParams } from "wouter";
import { fieldErrors } from "../api/errors";
import { newIdempotencyKey } from "../api/idempotency";
import { PayOrderMutation } from "../orders/queries";
import { useSession } from "../session/session";
import { Itinerary } from "../orders/Itinerary";
import { ErrorNote } from "../ui/ErrorNote";
import { money, when } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { conditionText } from "./OfferCard";
import { EMPTY_PASSENGER, PassengerFields, passengerInput, type PassengerDraft } from "./PassengerFields";
import { CreateOrderMutation, OfferQuery, SeatMapsQuery } from "./queries";
import { SeatMap, type ChosenSeat } from "./SeatMap";

/** Sums decimal strings of one currency exactly, in minor units. */
function addAmounts(amounts: readonly string[]): string {
  const cents = amounts.reduce((sum, amount) => sum + Math.round(Number(amount) * 100), 0);
  return (cents / 100).toFixed(2);
}

/**
 * Booking one offer: seats from each segment's map, the passengers' details, then a hold (pay
 * later, before its deadline) or pay now. What the API refuses is shown beside the field it names.
 */
export function BookPage() {
  const { offerId } = useParams<{ offerId: string }>();
  const [, navigate] = useLocation();
  const [{ data, error }] = useQuery({ query: OfferQuery, variables: { id: offerId } });
  const offer = data?.offer;
  const [maps] = useQuery({ query: SeatMapsQuery, variables: { offerId }, pause: !offer || offer.expired });
  const [drafts, setDrafts] = useState<Record<string, PassengerDraft>>({});
  /** segment id → passenger id → seat */
  const [seats, setSeats] = useState<ReadonlyMap<string, ReadonlyMap<string, ChosenSeat>>>(new Map());
  const [choosingFor, setChoosingFor] = useState<string | null>(null);
  const [creation, createOrder] = useMutation(CreateOrderMutation);
  const [payment, payOrder] = useMutation(PayOrderMutation);
  const [unpaidOrderId, setUnpaidOrderId] = useState<string | null>(null);
  const canBook = useSession().can("orders", "write");
  if (!offer) return data ? <PageHeading title="No such offer" /> : error ? <ErrorNote error={error} /> : <p>Loading…</p>;

  const seated = offer.passengers.filter((passenger) => passenger.type !== "INFANT_WITHOUT_SEAT");
  const chooser = choosingFor ?? seated[0]?.id ?? "";
  const nameOf = (passengerId: string) => {
    const index = offer.passengers.findIndex((passenger) => passenger.id === passengerId);
    const draft = drafts[passengerId];
    return draft?.givenName ? `${draft.givenName} ${draft.familyName}`.trim() : `Passenger ${index + 1}`;
  };
  const segments = offer.slices.flatMap((slice) => slice.segments);
  const chosenSeats = [...seats.values()].flatMap((bySegment) => [...bySegment.values()]);
  const total = addAmounts([offer.totalAmount, ...chosenSeats.map((seat) => seat.amount)]);
  const errors = fieldErrors(creation.error);
  const passengerError = (index: number) => (field: string) => errors.get(`passengers[${index}].${field}`);
  const choose = (segmentId: string) => (seat: ChosenSeat | null) =>
    setSeats((current) => {
      const bySegment = new Map(current.get(segmentId) ?? []);
      if (seat) bySegment.set(chooser, seat);
      else bySegment.delete(chooser);
      return new Map(current).set(segmentId, bySegment);
    });

  const book = async (payNow: boolean) => {
    const result = await createOrder({
      input: {
        offerId: offer.id,
        passengers: offer.passengers.map((passenger) => passengerInput(passenger.id, drafts[passenger.id] ?? EMPTY_PASSENGER, offer.passengerIdentityDocumentsRequired)),
        services: chosenSeats.map((seat) => ({ id: seat.serviceId, quantity: 1 })),
      },
      idempotencyKey: newIdempotencyKey("book"),
    });
    const order = result.data?.createOrder;
    if (!order) return;
    if (payNow) {
      const paid = await payOrder({
        input: { orderId: order.id, payment: { type: "BALANCE", currency: order.totalCurrency, amount: order.totalAmount } },
        idempotencyKey: newIdempotencyKey("pay"),
      });
      // Booked but not paid: say so, and lead to the order (it can be paid there until its deadline).
      if (!paid.data) return setUnpaidOrderId(order.id);
    }
    navigate(`/orders/${order.id}`);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void book(submitter?.value === "pay");
  };

  return (
    <>
      <PageHeading title="Book" />
      <p>
        <Link href="/search">← Back to the offers</Link>
      </p>
      {offer.expired ? <p className="notice">This offer expired at {when(offer.expiresAt)}: search again to book.</p> : null}
      <section className="card" aria-labelledby="offer-heading">
        <h2 id="offer-heading">
          {offer.owner.name} · {money(offer.totalAmount, offer.totalCurrency)}
        </h2>
        <Itinerary slices={offer.slices} />
        <ul>
          <li>{conditionText(offer.conditions.changeBeforeDeparture, "Changes")}</li>
          <li>{conditionText(offer.conditions.refundBeforeDeparture, "Refunds")}</li>
          <li>Offer valid until {when(offer.expiresAt)}</li>
        </ul>
      </section>
      <section className="card" aria-labelledby="seats-heading">
        <h2 id="seats-heading">Seats</h2>
        <p className="hint">
          Optional. <a href="#passengers-heading">Skip to the passengers</a>
        </p>
        {seated.length > 1 ? (
          <div className="segmented" role="group" aria-label="Choosing a seat for">
            {seated.map((passenger) => (
              <button key={passenger.id} type="button" aria-pressed={passenger.id === chooser} onClick={() => setChoosingFor(passenger.id)}>
                {nameOf(passenger.id)}
              </button>
            ))}
          </div>
        ) : null}
        <ErrorNote error={maps.error} />
        {maps.fetching && !maps.data ? <p>Loading seat maps…</p> : null}
        {maps.data?.seatMaps?.map((map) => {
          const segment = segments.find((candidate) => candidate.id === map.segmentId);
          const title = segment ? `${segment.origin.iataCode} → ${segment.destination.iataCode} ${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}` : map.segmentId;
          return <SeatMap key={map.id} map={map} title={title} passengerId={chooser} chosen={seats.get(map.segmentId) ?? new Map()} nameOf={nameOf} onChoose={choose(map.segmentId)} />;
        })}
        {chosenSeats.length > 0 ? (
          <p aria-live="polite">
            Chosen: {[...seats].flatMap(([, bySegment]) => [...bySegment].map(([passengerId, seat]) => `${seat.designator} for ${nameOf(passengerId)} (${Number(seat.amount) === 0 ? "free" : money(seat.amount, seat.currency)})`)).join(", ")}
          </p>
        ) : null}
      </section>
      <form onSubmit={submit} aria-labelledby="passengers-heading" className="card">
        <h2 id="passengers-heading" tabIndex={-1}>
          Passengers
        </h2>
        {offer.passengers.map((passenger, index) => (
          <PassengerFields
            key={passenger.id}
            index={index}
            type={passenger.type}
            draft={drafts[passenger.id] ?? EMPTY_PASSENGER}
            passportRequired={offer.passengerIdentityDocumentsRequired}
            errorOf={passengerError(index)}
            onChange={(draft) => setDrafts((current) => ({ ...current, [passenger.id]: draft }))}
          />
        ))}
        <ErrorNote error={creation.error} fields={(field) => field.startsWith("passengers[")} />
        <ErrorNote error={payment.error} />
        {unpaidOrderId ? (
          <p className="notice">
            The order is booked but not paid. <Link href={`/orders/${unpaidOrderId}`}>Open the order</Link> to pay it before its deadline.
          </p>
        ) : null}
        <p>
          Total <strong data-testid="booking-total">{money(total, offer.totalCurrency)}</strong>
          {chosenSeats.length > 0 ? <span className="hint"> (the offer and {chosenSeats.length} seat{chosenSeats.length === 1 ? "" : "s"})</span> : null}
        </p>
        {canBook ? (
          <div className="actions">
            <button type="submit" value="hold" disabled={offer.expired || creation.fetching || payment.fetching}>
              {offer.paymentRequirements.requiresInstantPayment ? "Hold (pay within 15 minutes)" : "Hold, pay later"}
            </button>
            <button type="submit" value="pay" className="primary" disabled={offer.expired || creation.fetching || payment.fetching}>
              Pay {money(total, offer.totalCurrency)} now
            </button>
          </div>
        ) : (
          <p className="notice">This key may search but not book (it has no write permission on orders).</p>
        )}
      </form>
    </>
  );
}
