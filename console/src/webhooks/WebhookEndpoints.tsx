import { useState } from "react";
import { useMutation, useQuery } from "urql";
import type { WebhookEndpointRowFragment } from "../generated/graphql";
import { newIdempotencyKey } from "../api/idempotency";
import { useListsOf } from "../api/list-context";
import { useSession } from "../session/session";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { when } from "../ui/format";
import { TableHead } from "../ui/TableHead";
import { eventsShown } from "./event-types";
import { NewEndpointForm } from "./NewEndpointForm";
import { DeleteWebhookEndpointMutation, PingWebhookEndpointMutation, RotateWebhookEndpointSecretMutation, UpdateWebhookEndpointMutation, WebhookEndpointsQuery } from "./queries";
import { SecretOnce } from "./SecretOnce";

interface WebhookEndpointsProps {
  /** The endpoint whose deliveries are shown, if one is. */
  shownEndpointId: string;
  /** Shows one endpoint's deliveries (or every delivery, given ""). */
  onShowDeliveries(endpointId: string): void;
  /** A ping was sent: the deliveries below are read again. */
  onPinged(): void;
}

/** The tenant's endpoints: each with the events it takes, switched on or off, rotated, pinged, deleted; and a new one. */
export function WebhookEndpoints({ shownEndpointId, onShowDeliveries, onPinged }: WebhookEndpointsProps) {
  const session = useSession();
  const editable = session.can("webhooks", "write");
  const [{ data, error }, readAgain] = useQuery({ query: WebhookEndpointsQuery, context: useListsOf("WebhookEndpoint") });
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const endpoints = data?.webhookEndpoints?.nodes ?? [];
  const refresh = () => readAgain({ requestPolicy: "network-only" });
  return (
    <section className="card" aria-labelledby="webhook-endpoints">
      <h2 id="webhook-endpoints">Endpoints</h2>
      <p className="hint">Each endpoint receives the events it names, signed with its own secret. The webhook URL above is the default endpoint: it receives every event.</p>
      <ErrorNote error={error} />
      {secret ? <SecretOnce secret={secret.value} note={secret.note} onDone={() => setSecret(null)} /> : null}
      <div className="table-wrap">
        <table>
          <caption>{data ? `${endpoints.length} endpoint${endpoints.length === 1 ? "" : "s"}` : "Loading…"}</caption>
          <TableHead columns={["URL", "Events", "Status", "Created", <span className="visually-hidden">Actions</span>]} />
          <tbody>
            {endpoints.map((endpoint) => (
              <EndpointRow
                key={endpoint.id}
                endpoint={endpoint}
                editable={editable}
                showingDeliveries={endpoint.id === shownEndpointId}
                onShowDeliveries={() => onShowDeliveries(endpoint.id === shownEndpointId ? "" : endpoint.id)}
                onSecret={(value, note) => setSecret({ value, note })}
                onChanged={refresh}
                onPinged={onPinged}
              />
            ))}
          </tbody>
        </table>
      </div>
      {editable ? (
        <>
          <h3>New endpoint</h3>
          <NewEndpointForm
            onCreated={(made) => {
              setSecret({ value: made.secret, note: "The new endpoint's signing secret." });
              refresh();
            }}
          />
        </>
      ) : null}
    </section>
  );
}

interface EndpointRowProps {
  endpoint: WebhookEndpointRowFragment;
  editable: boolean;
  showingDeliveries: boolean;
  onShowDeliveries(): void;
  onSecret(secret: string, note: string): void;
  onChanged(): void;
  onPinged(): void;
}

function EndpointRow({ endpoint, editable, showingDeliveries, onShowDeliveries, onSecret, onChanged, onPinged }: EndpointRowProps) {
  const [update, updateEndpoint] = useMutation(UpdateWebhookEndpointMutation);
  const [rotation, rotate] = useMutation(RotateWebhookEndpointSecretMutation);
  const [ping, sendPing] = useMutation(PingWebhookEndpointMutation);
  const [deletion, deleteEndpoint] = useMutation(DeleteWebhookEndpointMutation);
  const [confirming, setConfirming] = useState<"rotate" | "delete" | null>(null);
  const name = endpoint.description ?? endpoint.url;
  return (
    <tr aria-label={`Endpoint ${name}`}>
      <td>
        <code>{endpoint.url}</code>
        {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
      </td>
      <td>{eventsShown(endpoint.enabledEvents)}</td>
      <td>
        <span className="badge">{endpoint.enabled ? "Enabled" : "Disabled"}</span>
        {endpoint.isDefault ? <div className="hint">Default</div> : null}
      </td>
      <td>{when(endpoint.createdAt)}</td>
      <td className="actions">
        <button type="button" aria-pressed={showingDeliveries} onClick={onShowDeliveries}>
          Deliveries
        </button>
        {editable ? (
          <>
            <button
              type="button"
              disabled={update.fetching}
              onClick={async () => {
                if ((await updateEndpoint({ id: endpoint.id, input: { enabled: !endpoint.enabled } })).data) onChanged();
              }}
            >
              {endpoint.enabled ? "Disable" : "Enable"}
            </button>
            <button
              type="button"
              disabled={ping.fetching || !endpoint.enabled}
              onClick={async () => {
                if ((await sendPing({ id: endpoint.id, idempotencyKey: newIdempotencyKey("ping") })).data) onPinged();
              }}
            >
              Ping
            </button>
            <button type="button" onClick={() => setConfirming("rotate")}>
              Rotate secret…
            </button>
            <button type="button" className="danger" onClick={() => setConfirming("delete")}>
              Delete…
            </button>
          </>
        ) : null}
        {ping.data ? <span role="status" className="hint">Ping queued.</span> : null}
        <ErrorNote error={update.error ?? ping.error ?? rotation.error ?? deletion.error} />
        {confirming === "rotate" ? (
          <ConfirmDialog
            title="Rotate this endpoint's secret?"
            confirmLabel="Rotate"
            busy={rotation.fetching}
            onCancel={() => setConfirming(null)}
            onConfirm={async () => {
              const rotated = (await rotate({ id: endpoint.id })).data?.rotateWebhookEndpointSecret;
              setConfirming(null);
              if (rotated) onSecret(rotated.secret, rotated.previousSecretExpiresAt ? `The new signing secret of ${name}; the previous one also signs its deliveries until ${when(rotated.previousSecretExpiresAt)}.` : `The new signing secret of ${name}.`);
            }}
          >
            <p>A new secret signs this endpoint's deliveries from now on. The previous one keeps signing beside it for 24 hours, so its receiver can switch over.</p>
          </ConfirmDialog>
        ) : null}
        {confirming === "delete" ? (
          <ConfirmDialog
            title="Delete this endpoint?"
            confirmLabel="Delete endpoint"
            danger
            busy={deletion.fetching}
            onCancel={() => setConfirming(null)}
            onConfirm={async () => {
              const deleted = (await deleteEndpoint({ id: endpoint.id })).data;
              setConfirming(null);
              if (deleted) onChanged();
            }}
          >
            <p>
              {endpoint.url} receives nothing more: its deliveries still waiting fail unsent. The delivery log keeps them.
              {endpoint.isDefault ? " This is the default endpoint: deleting it clears the webhook URL." : ""}
            </p>
          </ConfirmDialog>
        ) : null}
      </td>
    </tr>
  );
}
