import { useEffect, useState } from "react";
import { useMutation, useQuery } from "urql";
import { Link } from "wouter";
import type { WebhookDeliveryRowFragment, WebhookDeliveryStatus } from "../generated/graphql";
import { useSession } from "../session/session";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { Pager } from "../ui/Pager";
import { useCursorPage, useUrlFilters } from "../ui/paging";
import { StatusBadge } from "../ui/StatusBadge";
import { RedeliverWebhookMutation, WebhookDeliveriesQuery } from "./queries";
import { WebhookSettings } from "./WebhookSettings";
import { WebhookEndpoints } from "./WebhookEndpoints";
import { useListsOf } from "../api/list-context";
import { TableHead } from "../ui/TableHead";

const PAGE_SIZE = 20;
const PENDING_REFRESH_MS = 3000;
const STATUSES: readonly WebhookDeliveryStatus[] = ["PENDING", "SUCCEEDED", "FAILED"];

/** Webhook settings, the endpoints, and every delivery (or one endpoint's) with each attempt: its status code or error, and how long it took. */
export function WebhooksPage() {
  const session = useSession();
  const { values, apply } = useUrlFilters(["status", "endpoint"] as const);
  const paging = useCursorPage(PAGE_SIZE);
  const status = STATUSES.includes(values.status as WebhookDeliveryStatus) ? (values.status as WebhookDeliveryStatus) : null;
  const [{ data, error, fetching }, readAgain] = useQuery({ query: WebhookDeliveriesQuery, variables: { ...paging.variables, status, endpointId: values.endpoint || null }, context: useListsOf("WebhookDelivery") });
  const deliveries = data?.webhookDeliveries;
  // While a delivery on the page is still being tried, its attempts are read again every few
  // seconds, so a redelivery's outcome shows without a reload.
  const tried = deliveries?.nodes.some((delivery) => delivery.status === "PENDING") ?? false;
  useEffect(() => {
    if (!tried) return;
    const timer = setInterval(() => readAgain({ requestPolicy: "network-only" }), PENDING_REFRESH_MS);
    return () => clearInterval(timer);
  }, [tried, readAgain]);
  return (
    <>
      <PageHeading title="Webhooks" />
      {session.can("tenant", "read") ? <WebhookSettings /> : null}
      <WebhookEndpoints shownEndpointId={values.endpoint} onShowDeliveries={(endpoint) => apply({ ...values, endpoint })} onPinged={() => readAgain({ requestPolicy: "network-only" })} />
      <section className="card" aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <div className="inline-form">
          {values.endpoint ? (
            <p>
              To endpoint <code>{values.endpoint}</code>{" "}
              <button type="button" onClick={() => apply({ ...values, endpoint: "" })}>
                Show every endpoint
              </button>
            </p>
          ) : null}
          <Field label="Status" className="narrow">
            <select name="deliveryStatus" value={values.status} onChange={(event) => apply({ ...values, status: event.target.value })}>
              <option value="">Any</option>
              {STATUSES.map((value) => (
                <option key={value} value={value}>
                  {words(value)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ErrorNote error={error} />
        <div className="table-wrap">
          <table>
            <caption>{deliveries ? `${deliveries.totalCount} deliver${deliveries.totalCount === 1 ? "y" : "ies"}` : fetching ? "Loading…" : ""}</caption>
            <TableHead columns={["Event", "Order", "Status", "Attempts", "Next attempt", "Created", <span className="visually-hidden">Actions</span>]} />
            <tbody>
              {deliveries?.nodes.map((delivery) => (
                <DeliveryRow key={delivery.id} delivery={delivery} canRedeliver={session.can("webhooks", "write")} onRedelivered={() => readAgain({ requestPolicy: "network-only" })} />
              ))}
            </tbody>
          </table>
        </div>
        <Pager list={deliveries} paging={paging} />
      </section>
    </>
  );
}

interface DeliveryRowProps {
  delivery: WebhookDeliveryRowFragment;
  canRedeliver: boolean;
  onRedelivered(): void;
}

function DeliveryRow({ delivery: initial, canRedeliver, onRedelivered }: DeliveryRowProps) {
  const [redelivery, redeliver] = useMutation(RedeliverWebhookMutation);
  const [open, setOpen] = useState(false);
  // The redelivery's answer until the list, read again, knows of an attempt it does not.
  const redelivered = redelivery.data?.redeliverWebhook;
  const delivery = redelivered && redelivered.attempts >= initial.attempts ? redelivered : initial;
  const last = delivery.attemptLog[delivery.attemptLog.length - 1];
  return (
    <>
      <tr>
        <td>
          <code>{delivery.event}</code>
        </td>
        <td>
          {delivery.orderId ? <Link href={`/orders/${delivery.orderId}`}>{delivery.orderId}</Link> : "—"}
        </td>
        <td>
          <StatusBadge status={delivery.status} />
          {last ? <div className="hint">{last.statusCode !== null && last.statusCode !== undefined ? `HTTP ${last.statusCode}` : (last.error ?? "no answer")}</div> : null}
        </td>
        <td>
          {delivery.attemptLog.length === 0 ? (
            "none yet"
          ) : (
            <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
              {delivery.attempts} attempt{delivery.attempts === 1 ? "" : "s"}
            </button>
          )}
        </td>
        <td>{when(delivery.nextAttemptAt)}</td>
        <td>{when(delivery.createdAt)}</td>
        <td>
          {canRedeliver ? (
            <button
              type="button"
              disabled={redelivery.fetching}
              onClick={async () => {
                if ((await redeliver({ id: delivery.id })).data) onRedelivered();
              }}
            >
              Redeliver
            </button>
          ) : null}
          <ErrorNote error={redelivery.error} />
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={7}>
            <table aria-label={`Attempts of ${delivery.event} for ${delivery.orderId}`}>
              <TableHead columns={["#", "Answer", "Took", "At"]} />
              <tbody>
                {delivery.attemptLog.map((attempt) => (
                  <tr key={attempt.number}>
                    <td>{attempt.number}</td>
                    <td>{attempt.statusCode !== null && attempt.statusCode !== undefined ? `HTTP ${attempt.statusCode}` : attempt.error}</td>
                    <td>{attempt.durationMs} ms</td>
                    <td>{when(attempt.attemptedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      ) : null}
    </>
  );
}
