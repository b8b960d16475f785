import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import { fieldErrors } from "../api/errors";
import { newIdempotencyKey } from "../api/idempotency";
import type { OrderDetailFragment } from "../generated/graphql";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { money, when } from "../ui/format";
import { Itinerary } from "./Itinerary";
import { ConfirmOrderChangeMutation, CreateOrderChangeMutation, RequestOrderChangeMutation } from "./queries";

interface OrderChangePanelProps {
  order: OrderDetailFragment;
  onChanged(order: OrderDetailFragment): void;
  onClose(): void;
}

/** What a change costs, in words: money paid, or money coming back. */
function costText(amount: string, currency: string): string {
  return amount.startsWith("-") ? `${money(amount.slice(1), currency)} back to the wallet` : `${money(amount, currency)} to pay`;
}

/**
 * Changing a ticketed order's dates: new dates for the slices to move, then the airline's
 * priced ways to make the change (cheapest first), then a confirmation that says what it costs
 * or gives back. Nothing changes until that confirmation.
 */
export function OrderChangePanel({ order, onChanged, onClose }: OrderChangePanelProps) {
  const slices = order.offer.slices;
  const [dates, setDates] = useState<Record<string, string>>(() => Object.fromEntries(slices.map((slice) => [slice.id, slice.departureDate])));
  const [request, requestChange] = useMutation(RequestOrderChangeMutation);
  const [choice, chooseOffer] = useMutation(CreateOrderChangeMutation);
  const [confirmation, confirmChange] = useMutation(ConfirmOrderChangeMutation);
  const [confirming, setConfirming] = useState(false);
  const moved = slices.filter((slice) => dates[slice.id] && dates[slice.id] !== slice.departureDate);
  const errors = fieldErrors(request.error);
  // The slice moved is the request's `slices.add[i]`; the API names the field either way.
  const addedSliceError = (addIndex: number) =>
    addIndex < 0 ? undefined : (errors.get(`slices.add[${addIndex}].departureDate`) ?? errors.get(`slices.add[${addIndex}].departure_date`) ?? errors.get(`slices.add[${addIndex}]`));

  const ask = (event: FormEvent) => {
    event.preventDefault();
    void requestChange({
      input: {
        orderId: order.id,
        slices: {
          remove: moved.map((slice) => ({ sliceId: slice.id })),
          add: moved.map((slice) => ({
            origin: slice.origin.iataCode,
            destination: slice.destination.iataCode,
            departureDate: dates[slice.id]!,
            cabinClass: slice.segments[0]!.cabinClass,
          })),
        },
      },
      idempotencyKey: newIdempotencyKey("change-request"),
    });
  };
  const choose = async (offerId: string) => {
    const result = await chooseOffer({ offerId, idempotencyKey: newIdempotencyKey("change") });
    if (result.data) setConfirming(true);
  };
  const chosen = choice.data?.createOrderChange;
  const offers = request.data?.requestOrderChange.orderChangeOffers;
  return (
    <section className="card" aria-labelledby="change-dates">
      <h3 id="change-dates">Change dates</h3>
      <form onSubmit={ask} className="grid-form">
        {slices.map((slice) => (
          <Field key={slice.id} label={`${slice.origin.iataCode} → ${slice.destination.iataCode}`} hint={`Now ${slice.departureDate}`} error={addedSliceError(moved.indexOf(slice))}>
            <input name={`date-${slice.id}`} type="date" value={dates[slice.id] ?? ""} onChange={(event) => setDates({ ...dates, [slice.id]: event.target.value })} />
          </Field>
        ))}
        <ErrorNote error={request.error} fields={(field) => field.startsWith("slices.add[")} />
        <div className="actions">
          <button type="submit" className="primary" disabled={moved.length === 0 || request.fetching}>
            {request.fetching ? "Asking the airline…" : "Find flights"}
          </button>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      {offers ? (
        offers.length === 0 ? (
          <p className="notice">The airline has no flight for that change: try other dates.</p>
        ) : (
          <div className="offers" aria-label="Ways to make the change">
            {offers.map((offer) => (
              <article key={offer.id} className="card offer" aria-label={`Change for ${costText(offer.changeTotalAmount, offer.changeTotalCurrency)}`}>
                <p className="price">{costText(offer.changeTotalAmount, offer.changeTotalCurrency)}</p>
                <p className="hint">
                  penalty {money(offer.penaltyTotalAmount, offer.penaltyTotalCurrency)} · new total {money(offer.newTotalAmount, offer.newTotalCurrency)} · until {when(offer.expiresAt)}
                </p>
                <Itinerary slices={offer.slices.add} />
                <div className="actions">
                  <button type="button" className="primary" disabled={choice.fetching} onClick={() => choose(offer.id)}>
                    Choose
                  </button>
                </div>
              </article>
            ))}
          </div>
        )
      ) : null}
      <ErrorNote error={choice.error} />
      {confirming && chosen ? (
        <ConfirmDialog
          title="Change the order?"
          confirmLabel={`Change, ${costText(chosen.changeTotalAmount, chosen.changeTotalCurrency)}`}
          busy={confirmation.fetching}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            const positive = !chosen.changeTotalAmount.startsWith("-") && Number(chosen.changeTotalAmount) > 0;
            const result = await confirmChange({
              id: chosen.id,
              payment: positive ? { type: "BALANCE", currency: chosen.changeTotalCurrency, amount: chosen.changeTotalAmount } : null,
              idempotencyKey: newIdempotencyKey("change-confirm"),
            });
            const changed = result.data?.confirmOrderChange.order;
            if (changed) {
              setConfirming(false);
              onChanged(changed);
              onClose();
            }
          }}
        >
          <p data-testid="change-cost">The order moves to the flights chosen: {costText(chosen.changeTotalAmount, chosen.changeTotalCurrency)}.</p>
          <p className="hint">New e-tickets are issued shortly after. The offer holds until {when(chosen.expiresAt)}.</p>
          <ErrorNote error={confirmation.error} />
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
