import { useState } from "react";
import { useMutation } from "urql";
import { newIdempotencyKey } from "../api/idempotency";
import type { OrderDetailFragment } from "../generated/graphql";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { money, when } from "../ui/format";
import { OrderChangePanel } from "./OrderChangePanel";
import { ConfirmCancellationMutation, PayOrderMutation, QuoteCancellationMutation } from "./queries";

interface OrderActionsProps {
  order: OrderDetailFragment;
  /** An action's answer: the order as it left it. */
  onChanged(order: OrderDetailFragment): void;
  /** The order may have changed without an answer to show (e.g. a new price): read it again. */
  onStale(): void;
}

/**
 * What the order's state allows, and only that: paying a hold (which starts ticketing),
 * changing a ticketed order's dates when its fare allows, and cancelling a hold or a ticketed
 * order after seeing the quote of what comes back.
 */
export function OrderActions({ order, onChanged, onStale }: OrderActionsProps) {
  const [payment, pay] = useMutation(PayOrderMutation);
  const [quote, requestQuote] = useMutation(QuoteCancellationMutation);
  const [confirmation, confirm] = useMutation(ConfirmCancellationMutation);
  const [payKey, setPayKey] = useState(() => newIdempotencyKey("pay"));
  const [quoteShown, setQuoteShown] = useState(false);
  const [changing, setChanging] = useState(false);
  const payable = order.status === "PENDING" && order.paymentStatus.awaitingPayment;
  const cancellable = (order.status === "PENDING" || order.status === "TICKETED") && !order.refundInProgress;
  const changeable = order.status === "TICKETED" && !order.refundInProgress && order.offer.conditions.changeBeforeDeparture.allowed;
  if (!payable && !cancellable && !changeable) return <p className="hint">Nothing can be done to an order in this state.</p>;

  const payNow = async () => {
    const result = await pay({
      input: { orderId: order.id, payment: { type: "BALANCE", currency: order.totalCurrency, amount: order.totalAmount } },
      idempotencyKey: payKey,
    });
    if (result.data) onChanged(result.data.payOrder.order);
    else {
      // After the price guarantee the airline may price it again: show the new total, and pay it
      // under a new key (the old one is bound to the old amount).
      setPayKey(newIdempotencyKey("pay"));
      onStale();
    }
  };
  const askQuote = async () => {
    const result = await requestQuote({ orderId: order.id, idempotencyKey: newIdempotencyKey("quote") });
    if (result.data) setQuoteShown(true);
  };
  const quoted = quote.data?.quoteOrderCancellation;
  return (
    <div>
      <div className="actions">
        {payable ? (
          <button type="button" className="primary" disabled={payment.fetching} onClick={payNow}>
            Pay {money(order.totalAmount, order.totalCurrency)} and ticket
          </button>
        ) : null}
        {changeable ? (
          <button type="button" aria-expanded={changing} onClick={() => setChanging(!changing)}>
            Change dates…
          </button>
        ) : null}
        {cancellable ? (
          <button type="button" className="danger" disabled={quote.fetching} onClick={askQuote}>
            {order.status === "TICKETED" ? "Cancel and refund…" : "Cancel…"}
          </button>
        ) : null}
      </div>
      <ErrorNote error={payment.error ?? quote.error} />
      {changing && changeable ? <OrderChangePanel order={order} onChanged={onChanged} onClose={() => setChanging(false)} /> : null}
      {quoteShown && quoted ? (
        <ConfirmDialog
          title="Cancel this order?"
          confirmLabel={`Cancel, refunding ${money(quoted.refundAmount, quoted.refundCurrency)}`}
          danger
          busy={confirmation.fetching}
          onCancel={() => setQuoteShown(false)}
          onConfirm={async () => {
            const result = await confirm({ id: quoted.id, idempotencyKey: newIdempotencyKey("cancel") });
            if (result.data) {
              setQuoteShown(false);
              onChanged(result.data.confirmOrderCancellation.order);
            }
          }}
        >
          <p data-testid="cancellation-quote">
            Cancelling refunds <strong>{money(quoted.refundAmount, quoted.refundCurrency)}</strong> to the wallet.
          </p>
          <p className="hint">This quote holds until {when(quoted.expiresAt)}; after that, ask for a new one.</p>
          <ErrorNote error={confirmation.error} />
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
