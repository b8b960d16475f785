import { when } from "../ui/format";

interface TimelineEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

const TITLES: Record<string, string> = {
  "order.created": "Booked",
  "order.ticketed": "Ticketed",
  "order.failed": "Ticketing failed",
  "order.cancelled": "Cancelled",
  "order.refunded": "Refunded",
  "order.services_added": "Services added",
  "order.changed": "Changed",
  "order.airline_initiated_change_detected": "The airline changed a flight",
};

/** What an event's data adds beyond its name, in words (the data is the webhook's, in REST names). */
function detailOf(data: Record<string, unknown>): string | null {
  const parts: string[] = [];
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : null);
  if (text("cancellation_reason")) parts.push(`reason: ${text("cancellation_reason")!.replace(/_/g, " ")}`);
  if (text("failure_reason")) parts.push(`reason: ${text("failure_reason")!.replace(/_/g, " ")}`);
  if (text("change_total_amount")) parts.push(`change ${text("change_total_amount")} ${text("total_currency") ?? ""}, new total ${text("total_amount") ?? ""}`.trim());
  if (text("refund_amount")) parts.push(`refund ${text("refund_amount")} ${text("refund_currency") ?? text("total_currency") ?? ""}`.trim());
  if (Array.isArray(data.documents) && data.documents.length > 0) {
    parts.push(`e-tickets ${data.documents.map((document) => (document as { unique_identifier?: string }).unique_identifier).join(", ")}`);
  }
  if (data.payment_reversed === true) parts.push("payment returned to the wallet");
  return parts.length > 0 ? parts.join(" · ") : null;
}

/** The order's history from its events, oldest first, as its webhooks reported it. */
export function OrderTimeline({ events }: { events: readonly TimelineEvent[] }) {
  if (events.length === 0) return <p className="hint">No events yet.</p>;
  return (
    <ol className="timeline" aria-label="Order history">
      {events.map((event) => {
        const detail = detailOf(event.data);
        return (
          <li key={event.id}>
            <strong>{TITLES[event.type] ?? event.type}</strong> <code className="hint">{event.type}</code>
            <time dateTime={event.createdAt}>{when(event.createdAt)}</time>
            {detail ? <div>{detail}</div> : null}
          </li>
        );
      })}
    </ol>
  );
}
