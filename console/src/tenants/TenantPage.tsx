import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { useLocation, useParams } from "wouter";
import { useSession } from "../session/session";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { shown, when, words } from "../ui/format";
import { PageHeading } from "../ui/PageHeading";
import { StatusBadge } from "../ui/StatusBadge";
import { ApiKeysSection } from "./ApiKeysSection";
import { DeleteTenantMutation, TenantQuery, UpdateTenantStatusMutation } from "./queries";
import { PlatformGrantsSection } from "./PlatformGrantsSection";
import { UsageSection } from "./UsageSection";
import { WalletCreditSection } from "./WalletCreditSection";
import { useListsOf } from "../api/list-context";
import { PricingRulesSection } from "../pricing/PricingRulesSection";
import { StatementsSection } from "../statements/StatementsSection";
import { AuditLog } from "../audit/AuditLog";

/** Owner: one tenant, its status, keys, wallet, platform accounts, pricing rules, statements, usage and audit log; acting for it opens its own pages. */
export function TenantPage() {
  const { id } = useParams<{ id: string }>();
  const session = useSession();
  const [, navigate] = useLocation();
  const [{ data, error }] = useQuery({ query: TenantQuery, variables: { id }, context: useListsOf("ApiKey") });
  const [statusChange, updateStatus] = useMutation(UpdateTenantStatusMutation);
  const [deletion, deleteTenant] = useMutation(DeleteTenantMutation);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [typedName, setTypedName] = useState("");
  const tenant = data?.tenant;
  if (!tenant) return data ? <PageHeading title="No such tenant" /> : error ? <ErrorNote error={error} /> : <p>Loading…</p>;
  const deleted = tenant.status === "DELETED";
  // What the person sees is what they type to confirm a deletion, whatever the name hides.
  const name = tenant.name === null ? null : shown(tenant.name);
  const actFor = () => {
    session.actFor(tenant.id);
    navigate("/orders");
  };
  return (
    <>
      <PageHeading title={name ?? "Deleted tenant"}>
        <p className="subtitle">
          <StatusBadge status={tenant.status} /> <span className="badge">{words(tenant.environment)}</span> <code>{tenant.id}</code>
        </p>
      </PageHeading>
      <section className="card" aria-labelledby="tenant-details">
        <h2 id="tenant-details">Details</h2>
        <dl className="facts">
          <dt>Email</dt>
          <dd>{tenant.email ?? "—"}</dd>
          <dt>Slug</dt>
          <dd>{tenant.slug}</dd>
          <dt>Created</dt>
          <dd>{when(tenant.createdAt)}</dd>
          {deleted ? (
            <>
              <dt>Deleted</dt>
              <dd>{when(tenant.deletedAt)}</dd>
            </>
          ) : null}
        </dl>
        {deleted ? null : (
          <div className="actions">
            <button type="button" className="primary" onClick={actFor}>
              Act for this tenant
            </button>
            {tenant.status === "ACTIVE" ? (
              <button type="button" disabled={statusChange.fetching} onClick={() => updateStatus({ id: tenant.id, status: "SUSPENDED" })}>
                Suspend
              </button>
            ) : (
              <button type="button" disabled={statusChange.fetching} onClick={() => updateStatus({ id: tenant.id, status: "ACTIVE" })}>
                Reactivate
              </button>
            )}
            <button type="button" className="danger" onClick={() => setConfirmingDelete(true)}>
              Delete…
            </button>
          </div>
        )}
        <ErrorNote error={statusChange.error ?? deletion.error} />
      </section>
      {confirmingDelete ? (
        <ConfirmDialog
          title={`Delete ${name}?`}
          confirmLabel="Delete tenant and all its data"
          danger
          busy={deletion.fetching}
          confirmDisabled={typedName !== name}
          onCancel={() => setConfirmingDelete(false)}
          onConfirm={async () => {
            const result = await deleteTenant({ id: tenant.id });
            if (result.data) setConfirmingDelete(false);
          }}
        >
          <p>Every order, key, ledger entry and webhook delivery of this tenant is removed; only a tombstone stays. This cannot be undone.</p>
          <Field label={`Type the tenant's name (${name}) to confirm`}>
            <input name="confirmName" autoComplete="off" value={typedName} onChange={(event) => setTypedName(event.target.value)} />
          </Field>
        </ConfirmDialog>
      ) : null}
      {deleted ? null : (
        <>
          <ApiKeysSection tenantId={tenant.id} keys={tenant.apiKeys.nodes} />
          <WalletCreditSection tenantId={tenant.id} />
          <PlatformGrantsSection tenantId={tenant.id} environment={tenant.environment} granted={tenant.platformAccounts} />
          <PricingRulesSection tenantId={tenant.id} />
          <StatementsSection tenantId={tenant.id} />
        </>
      )}
      <UsageSection tenantId={tenant.id} />
      <AuditLog tenantId={tenant.id} />
    </>
  );
}
