import { useEffect, useState } from "react";
import { useQuery, useSubscription } from "urql";
import { useParams } from "wouter";
import type { OrderDetailFragment } from "../generated/graphql";
import { useSession } from "../session/session";
import { ErrorNote } from "../ui/ErrorNote";
import { money, when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { StatusBadge } from "../ui/StatusBadge";
import { Itinerary } from "./Itinerary";
import { OrderActions } from "./OrderActions";
import { OrderTimeline } from "./OrderTimeline";
import { OrderEventsQuery, OrderQuery, OrderStatusSubscription } from "./queries";
import { useListsOf } from "../api/list-context";
import { TableHead } from "../ui/TableHead";
import { downloadDocument } from "../api/documents";

/** Who pays the fare of an order of each settlement (docs/duffel.md#who-settles). */
const SETTLED_BY = {
  WALLET: "the wallet pays the total and gets its refunds",
  SUPPLIER: "the tenant's own supplier account pays the fare; the wallet pays only the service fee",
} as const;

/** Of the order as read, as pushed live and as an action left it, the latest. */
function latest(...candidates: Array<OrderDetailFragment | null | undefined>): OrderDetailFragment | null {
  return candidates.reduce<OrderDetailFragment | null>((best, candidate) => (candidate && (!best || candidate.updatedAt >= best.updatedAt) ? candidate : best), null);
}

/**
 * One order: its state, kept live over graphql-ws (orderStatusChanged) while the page is open,
 * the actions that state allows, the itinerary, passengers, services and seats, e-tickets, and
 * its history from its events.
 */
export function OrderPage() {
  const { id } = useParams<{ id: string }>();
  const session = useSession();
  const [read, readAgain] = useQuery({ query: OrderQuery, variables: { id } });
  const [live] = useSubscription({ query: OrderStatusSubscription, variables: { orderId: id } });
  const [history, readHistoryAgain] = useQuery({ query: OrderEventsQuery, variables: { id }, context: useListsOf("OrderHistoryEvent") });
  const [acted, setActed] = useState<OrderDetailFragment | null>(null);
  const order = latest(read.data?.order, live.data?.orderStatusChanged, acted);
  // Every change pushed is a new event in the history.
  useEffect(() => {
    if (live.data) readHistoryAgain({ requestPolicy: "network-only" });
  }, [live.data?.orderStatusChanged.updatedAt]);
  if (!order) return read.data ? <PageHeading title="No such order" /> : read.error ? <ErrorNote error={read.error} /> : <p>Loading…</p>;
  const passengerName = (passengerId: string) => {
    const passenger = order.passengers.find((candidate) => candidate.id === passengerId);
    return passenger ? `${passenger.givenName} ${passenger.familyName}` : passengerId;
  };
  const segments = order.offer.slices.flatMap((slice) => slice.segments);
  const segmentName = (segmentId: string) => {
    const segment = segments.find((candidate) => candidate.id === segmentId);
    return segment ? `${segment.origin.iataCode}→${segment.destination.iataCode} ${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}` : segmentId;
  };
  const { paymentStatus, offer } = order;
  return (
    <>
      <PageHeading title={`Order ${order.bookingReference}`}>
        <p className="subtitle">
          <code>{order.id}</code> · booked {when(order.createdAt)}
        </p>
      </PageHeading>
      <section className="card" aria-labelledby="order-state">
        <h2 id="order-state">State</h2>
        <p className="order-status" aria-live="polite" data-testid="order-status">
          <StatusBadge status={order.status} />
          {order.refundInProgress ? <span>refund in progress</span> : null}
          <span className="hint">{live.data ? "updates live" : live.error ? "live updates unavailable" : "connecting for live updates…"}</span>
        </p>
        <dl className="facts">
          <dt>Total</dt>
          <dd>
            {money(order.totalAmount, order.totalCurrency)} <span className="hint">(fare {order.baseAmount}, taxes {order.taxAmount}, service fee {order.feeAmount})</span>
          </dd>
          <dt>Settlement</dt>
          <dd>
            {words(order.settlement)} <span className="hint">({SETTLED_BY[order.settlement]})</span>
          </dd>
          {paymentStatus.awaitingPayment ? (
            <>
              <dt>Pay by</dt>
              <dd>{when(paymentStatus.paymentRequiredBy)} (unpaid then, it is cancelled)</dd>
              <dt>Price held until</dt>
              <dd>{when(paymentStatus.priceGuaranteeExpiresAt)}</dd>
            </>
          ) : null}
          {paymentStatus.paidAt ? (
            <>
              <dt>Paid</dt>
              <dd>{when(paymentStatus.paidAt)}</dd>
            </>
          ) : null}
          {order.failureReason ? (
            <>
              <dt>Failure</dt>
              <dd>{words(order.failureReason)}</dd>
            </>
          ) : null}
          {order.cancellationReason ? (
            <>
              <dt>Cancelled</dt>
              <dd>{words(order.cancellationReason)}</dd>
            </>
          ) : null}
          <dt>Conditions</dt>
          <dd>
            Changes {offer.conditions.changeBeforeDeparture.allowed ? `allowed (penalty ${offer.conditions.changeBeforeDeparture.penaltyAmount ?? "0"} ${offer.conditions.changeBeforeDeparture.penaltyCurrency ?? ""})` : "not allowed"}; refunds{" "}
            {offer.conditions.refundBeforeDeparture.allowed ? `allowed (penalty ${offer.conditions.refundBeforeDeparture.penaltyAmount ?? "0"} ${offer.conditions.refundBeforeDeparture.penaltyCurrency ?? ""})` : "not allowed (taxes come back)"}
          </dd>
        </dl>
        {order.status === "TICKETED" || order.status === "REFUNDED" ? <InvoiceButton orderId={order.id} /> : null}
        {session.can("orders", "write") ? <OrderActions order={order} onChanged={setActed} onStale={() => readAgain({ requestPolicy: "network-only" })} /> : null}
      </section>
      <div className="columns">
        <section className="card" aria-labelledby="itinerary">
          <h2 id="itinerary">Itinerary</h2>
          <Itinerary slices={offer.slices} />
        </section>
        <section className="card" aria-labelledby="history">
          <h2 id="history">History</h2>
          <ErrorNote error={history.error} />
          <OrderTimeline events={history.data?.order?.events.nodes ?? []} />
        </section>
      </div>
      <section className="card" aria-labelledby="passengers">
        <h2 id="passengers">Passengers</h2>
        <div className="table-wrap">
          <table>
            <TableHead columns={["Name", "Type", "Born", "Contact", "Document"]} />
            <tbody>
              {order.passengers.map((passenger) => (
                <tr key={passenger.id}>
                  <td>
                    {passenger.title ? `${words(passenger.title)} ` : ""}
                    {passenger.givenName} {passenger.familyName}
                  </td>
                  <td>{words(passenger.type)}</td>
                  <td>{passenger.bornOn}</td>
                  <td>
                    {passenger.email}
                    <br />
                    {passenger.phoneNumber}
                  </td>
                  <td>
                    {passenger.identityDocuments.map((document) => (
                      <div key={document.number}>
                        {words(document.type)} {document.number} ({document.issuingCountryCode}, expires {document.expiresOn})
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <div className="columns">
        <section className="card" aria-labelledby="services">
          <h2 id="services">Services and seats</h2>
          {order.services.length === 0 ? (
            <p className="hint">No seats or bags booked.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <TableHead columns={["Service", "Passenger", "Flight", "Price"]} />
                <tbody>
                  {order.services.map((service) => (
                    <tr key={service.id}>
                      <td>{service.type === "seat" ? `Seat ${service.designator}` : `${service.quantity} × ${service.type}`}</td>
                      <td>{service.passengerIds.map(passengerName).join(", ")}</td>
                      <td>{service.segmentIds.map(segmentName).join(", ")}</td>
                      <td>{money(service.totalAmount, service.totalCurrency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="documents">
          <h2 id="documents">Documents</h2>
          {order.documents.length === 0 ? (
            <p className="hint">E-tickets appear here once the order is ticketed.</p>
          ) : (
            <ul>
              {order.documents.map((document) => (
                <li key={document.id}>
                  {words(document.type)} <strong>{document.uniqueIdentifier}</strong> for {passengerName(document.passengerId)}, issued {when(document.issuedAt)}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

/** The ticketed order's receipt as a PDF to save. */
function InvoiceButton({ orderId }: { orderId: string }) {
  const { credentials } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const download = () => downloadDocument(credentials, `/v1/air/orders/${orderId}/invoice`, "application/pdf").catch((error: Error) => setFailure(error.message));
  return (
    <div className="actions">
      <button type="button" onClick={download}>
        Download receipt (PDF)
      </button>
      {failure ? <p className="error" role="alert">{failure}</p> : null}
    </div>
  );
}
