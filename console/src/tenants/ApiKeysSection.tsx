import { useState, type FormEvent } from "react";
import { useMutation } from "urql";
import type { ApiKeyRowFragment, PermissionLevel } from "../generated/graphql";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { CopyButton } from "../ui/CopyButton";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { shown, when, words } from "../ui/format";
import { CreateTenantApiKeyMutation, RevokeTenantApiKeyMutation } from "./queries";
import { TableHead } from "../ui/TableHead";

const RESOURCES = ["search", "orders", "wallet", "webhooks", "tenant"] as const;
type Resource = (typeof RESOURCES)[number];
type Permissions = Record<Resource, PermissionLevel>;

/** What each resource covers (docs/authentication.md#key-permissions). */
const COVERS: Record<Resource, string> = {
  search: "locations, flight search, offers, seat maps (write is the same as read)",
  orders: "orders, services, payments, cancellations, changes, documents",
  wallet: "the wallet and its ledger",
  webhooks: "webhook settings, secret, delivery log, redelivery",
  tenant: "the tenant's configuration",
};

const FULL_ACCESS: Permissions = { search: "WRITE", orders: "WRITE", wallet: "WRITE", webhooks: "WRITE", tenant: "WRITE" };
const READ_ONLY: Permissions = { search: "READ", orders: "READ", wallet: "READ", webhooks: "READ", tenant: "READ" };


function permissionSummary(permissions: Permissions): string {
  if (RESOURCES.every((resource) => permissions[resource] === "WRITE")) return "full access";
  return RESOURCES.map((resource) => `${resource}: ${words(permissions[resource])}`).join(", ");
}

/** Owner: a tenant's keys, issuing one with chosen permissions (its secret shown once), and revoking. */
export function ApiKeysSection({ tenantId, keys }: { tenantId: string; keys: readonly ApiKeyRowFragment[] }) {
  const [label, setLabel] = useState("");
  const [permissions, setPermissions] = useState<Permissions>(FULL_ACCESS);
  const [issued, issueKey] = useMutation(CreateTenantApiKeyMutation);
  const [revocation, revokeKey] = useMutation(RevokeTenantApiKeyMutation);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRowFragment | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await issueKey({ tenantId, label, permissions });
    if (result.data) {
      setSecret({ label: result.data.createTenantApiKey.key.label, value: result.data.createTenantApiKey.apiKey });
      setLabel("");
      setPermissions(FULL_ACCESS);
    }
  };
  return (
    <section className="card" aria-labelledby="api-keys">
      <h2 id="api-keys">API keys</h2>
      {secret ? (
        <div className="secret" role="status">
          <p>
            The secret of <strong>{shown(secret.label)}</strong>. It is shown this once: store it now.
          </p>
          <p>
            <code className="secret-value" data-testid="new-key-secret">
              {secret.value}
            </code>{" "}
            <CopyButton text={secret.value} />
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            I have stored it
          </button>
        </div>
      ) : null}
      <div className="table-wrap">
        <table>
          <caption>{keys.length} key{keys.length === 1 ? "" : "s"}</caption>
          <TableHead columns={["Label", "Prefix", "Permissions", "Created", "State"]} />
          <tbody>
            {keys.map((key) => (
              <tr key={key.id}>
                <td>{shown(key.label)}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{permissionSummary(key.permissions)}</td>
                <td>{when(key.createdAt)}</td>
                <td>
                  {key.revokedAt ? (
                    `revoked ${when(key.revokedAt)}`
                  ) : (
                    <button type="button" className="danger" onClick={() => setRevoking(key)}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorNote error={revocation.error} />
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${shown(revoking.label)}?`}
          confirmLabel="Revoke key"
          danger
          busy={revocation.fetching}
          onCancel={() => setRevoking(null)}
          onConfirm={async () => {
            const result = await revokeKey({ tenantId, keyId: revoking.id });
            if (result.data) setRevoking(null);
          }}
        >
          <p>
            Requests with the key <code>{revoking.prefix}…</code> are refused from now on, in every process. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      <form onSubmit={submit} className="grid-form" aria-labelledby="issue-key">
        <h3 id="issue-key">Issue a key</h3>
        <Field label="Label" hint="Who or what will use it, e.g. “reporting”.">
          <input name="label" required maxLength={100} value={label} onChange={(event) => setLabel(event.target.value)} />
        </Field>
        <fieldset className="permissions">
          <legend>Permissions</legend>
          <div className="actions">
            <button type="button" onClick={() => setPermissions(FULL_ACCESS)}>
              Full access
            </button>
            <button type="button" onClick={() => setPermissions(READ_ONLY)}>
              Read-only
            </button>
          </div>
          {RESOURCES.map((resource) => (
            <Field key={resource} label={resource} hint={COVERS[resource]}>
              <select
                name={`permission-${resource}`}
                value={permissions[resource]}
                onChange={(event) => setPermissions({ ...permissions, [resource]: event.target.value as PermissionLevel })}
              >
                <option value="WRITE">write</option>
                <option value="READ">read</option>
                <option value="NONE">none</option>
              </select>
            </Field>
          ))}
        </fieldset>
        <ErrorNote error={issued.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={issued.fetching}>
            Issue key
          </button>
        </div>
      </form>
    </section>
  );
}
