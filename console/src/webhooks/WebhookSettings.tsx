import { useEffect, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { fieldErrors } from "../api/errors";
import { useSession } from "../session/session";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { when } from "../ui/format";
import { SecretOnce } from "./SecretOnce";
import { RotateWebhookSecretMutation, UpdateWebhookSettingsMutation, WebhookSettingsQuery } from "./queries";

/** Where the tenant's webhooks go, whether they are sent, and the signing secret's rotation. */
export function WebhookSettings() {
  const session = useSession();
  const editable = session.can("webhooks", "write") && session.can("tenant", "write");
  const [{ data, error }] = useQuery({ query: WebhookSettingsQuery });
  const [update, updateSettings] = useMutation(UpdateWebhookSettingsMutation);
  const [rotation, rotate] = useMutation(RotateWebhookSecretMutation);
  const [url, setUrl] = useState("");
  const [enabled, setEnabled] = useState(false);
  const [secret, setSecret] = useState<{ value: string; note: string } | null>(null);
  const [confirmingRotation, setConfirmingRotation] = useState(false);
  const tenant = data?.viewer.tenant;
  useEffect(() => {
    if (!tenant) return;
    setUrl(tenant.webhookUrl ?? "");
    setEnabled(tenant.webhookEnabled);
  }, [tenant?.webhookUrl, tenant?.webhookEnabled]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await updateSettings({ input: { webhookUrl: url.trim() || null, webhookEnabled: enabled } });
    const made = result.data?.updateTenantConfig.webhookSecret;
    if (made) setSecret({ value: made, note: "The webhook signing secret, made with the first URL." });
  };
  const urlError = fieldErrors(update.error).get("webhookUrl") ?? fieldErrors(update.error).get("webhook_url");
  return (
    <section className="card" aria-labelledby="webhook-settings">
      <h2 id="webhook-settings">Settings</h2>
      <ErrorNote error={error} />
      {secret ? <SecretOnce secret={secret.value} note={secret.note} onDone={() => setSecret(null)} /> : null}
      {editable ? (
        <form onSubmit={submit} className="grid-form">
          <Field label="Webhook URL" hint="Order events are POSTed here, signed (Standard Webhooks)." error={urlError} className="full-row">
            <input name="webhookUrl" type="url" value={url} onChange={(event) => setUrl(event.target.value)} />
          </Field>
          <div className="field">
            <label className="check">
              <input type="checkbox" name="webhookEnabled" checked={enabled} onChange={(event) => setEnabled(event.target.checked)} /> Send webhooks
            </label>
          </div>
          <ErrorNote error={update.error ?? rotation.error} fields={["webhookUrl", "webhook_url"]} />
          <div className="actions">
            <button type="submit" className="primary" disabled={update.fetching}>
              Save
            </button>
            <button type="button" onClick={() => setConfirmingRotation(true)} disabled={!tenant?.webhookUrl}>
              Rotate secret…
            </button>
          </div>
        </form>
      ) : tenant ? (
        <dl className="facts">
          <dt>Webhook URL</dt>
          <dd>{tenant.webhookUrl ?? "none"}</dd>
          <dt>Sending</dt>
          <dd>{tenant.webhookEnabled ? "on" : "off"}</dd>
        </dl>
      ) : null}
      {confirmingRotation ? (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate"
          busy={rotation.fetching}
          onCancel={() => setConfirmingRotation(false)}
          onConfirm={async () => {
            const result = await rotate({});
            setConfirmingRotation(false);
            const rotated = result.data?.rotateWebhookSecret;
            if (rotated) {
              setSecret({
                value: rotated.webhookSecret,
                note: rotated.previousSecretExpiresAt ? `The new signing secret; the previous one also signs deliveries until ${when(rotated.previousSecretExpiresAt)}.` : "The new signing secret.",
              });
            }
          }}
        >
          <p>A new secret signs every delivery from now on. The previous one keeps signing beside it for 24 hours, so the receiver can switch over.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
