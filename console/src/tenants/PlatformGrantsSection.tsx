import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { Link } from "wouter";
import { useListsOf } from "../api/list-context";
import type { Environment } from "../generated/graphql";
import { PlatformAccountsQuery } from "../suppliers/queries";
import { supplierName } from "../suppliers/PlatformAccountsSection";
import { ErrorNote } from "../ui/ErrorNote";
import { UpdateTenantPlatformAccountsMutation } from "./queries";

/** The platform account's mode that serves a tenant of this environment. */
const MODE_FOR = { SANDBOX: "TEST", LIVE: "LIVE" } as const;

interface PlatformGrantsProps {
  tenantId: string;
  environment: Environment;
  /** The suppliers whose platform account the tenant may book through now. */
  granted: readonly string[];
}

/**
 * Owner: which of the platform's supplier accounts the tenant may book through (paying its
 * wallet: `wallet` settlement), a box per supplier that has an account or is granted, saved
 * through updateTenant (an audited change).
 */
export function PlatformGrantsSection({ tenantId, environment, granted }: PlatformGrantsProps) {
  const [{ data, error }] = useQuery({ query: PlatformAccountsQuery, context: useListsOf("PlatformAccount") });
  const [update, updateGrants] = useMutation(UpdateTenantPlatformAccountsMutation);
  const [chosen, setChosen] = useState(() => new Set(granted));
  const [saved, setSaved] = useState(false);
  const accounts = data?.platformAccounts ?? [];
  const suppliers = [...new Set([...accounts.map((account) => account.supplier), ...granted])];
  const mode = MODE_FOR[environment];
  const toggle = (supplier: string) => {
    const next = new Set(chosen);
    if (next.has(supplier)) next.delete(supplier);
    else next.add(supplier);
    setChosen(next);
    setSaved(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await updateGrants({ id: tenantId, platformAccounts: suppliers.filter((supplier) => chosen.has(supplier)) });
    setSaved(Boolean(result.data));
  };
  return (
    <section className="card" aria-labelledby="platform-grants">
      <h2 id="platform-grants">Platform accounts</h2>
      <ErrorNote error={error} />
      {data && suppliers.length === 0 ? (
        <p>
          The platform has no supplier accounts. <Link href="/suppliers">Connect one on the Suppliers page.</Link>
        </p>
      ) : (
        <form onSubmit={submit} className="grid-form" aria-label="Platform account grants">
          <fieldset className="permissions">
            <legend>Book through the platform's account</legend>
            {suppliers.map((supplier) => {
              const serving = accounts.some((account) => account.supplier === supplier && account.mode === mode);
              return (
                <label className="check" key={supplier}>
                  <input type="checkbox" name={`platform-${supplier}`} checked={chosen.has(supplier)} onChange={() => toggle(supplier)} /> {supplierName(supplier)}
                  <span className="hint">{serving ? `its ${mode.toLowerCase()} account` : `no ${mode.toLowerCase()} account yet`}</span>
                </label>
              );
            })}
          </fieldset>
          <p className="hint full-row">
            When the tenant has no account of its own with the supplier, it books through the platform's and pays its wallet. Its own supplier settings must still
            include the supplier for its searches to ask it.
          </p>
          <ErrorNote error={update.error} />
          <div className="actions">
            <button type="submit" className="primary" disabled={update.fetching}>
              Save platform accounts
            </button>
            {saved ? (
              <span role="status" className="hint">
                Saved.
              </span>
            ) : null}
          </div>
        </form>
      )}
    </section>
  );
}
