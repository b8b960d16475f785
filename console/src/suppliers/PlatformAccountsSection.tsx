import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { fieldErrors } from "../api/errors";
import { useListsOf } from "../api/list-context";
import type { PlatformAccountRowFragment } from "../generated/graphql";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { when, words } from "../ui/format";
import { StatusBadge } from "../ui/StatusBadge";
import { TableHead } from "../ui/TableHead";
import { CreatePlatformAccountMutation, DeletePlatformAccountMutation, PlatformAccountsQuery } from "./queries";

/** The suppliers that take an account of the platform's own (docs/connectors.md): Duffel. */
export const ACCOUNT_SUPPLIERS = [{ id: "duffel", name: "Duffel" }] as const;

/** What each mode's account serves. */
const SERVES = { TEST: "sandbox tenants", LIVE: "live tenants" } as const;

/** The fields the form shows the API's message beside, as GraphQL and the domain name them. */
const FORM_FIELDS = ["supplier", "accessToken", "access_token"];

/**
 * Owner: the platform's own supplier accounts (one per supplier and mode; never a token shown),
 * connecting one with its access token, and deleting one after a confirmation. Tenants book
 * through them once granted on their page, paying their wallet.
 */
export function PlatformAccountsSection() {
  const [{ data, error }] = useQuery({ query: PlatformAccountsQuery, context: useListsOf("PlatformAccount") });
  const [creation, createAccount] = useMutation(CreatePlatformAccountMutation);
  const [deletion, deleteAccount] = useMutation(DeletePlatformAccountMutation);
  const [supplier, setSupplier] = useState<string>(ACCOUNT_SUPPLIERS[0].id);
  const [accessToken, setAccessToken] = useState("");
  const [deleting, setDeleting] = useState<PlatformAccountRowFragment | null>(null);
  const accounts = data?.platformAccounts ?? [];
  const errors = fieldErrors(creation.error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await createAccount({ input: { supplier, accessToken } });
    if (result.data) setAccessToken("");
  };
  return (
    <section className="card" aria-labelledby="platform-accounts">
      <h2 id="platform-accounts">Platform accounts</h2>
      <p className="hint">
        The platform's own accounts with suppliers. Tenants you grant one on their page book through it when they have no account of their own there: they pay their
        wallet, and the supplier takes the fare from the platform's balance. A test token's account serves sandbox tenants, a live one live tenants.
      </p>
      <ErrorNote error={error} />
      <div className="table-wrap">
        <table>
          <caption>
            {accounts.length} account{accounts.length === 1 ? "" : "s"}
          </caption>
          <TableHead columns={["Supplier", "Mode", "Status", "Created", "Last used", ""]} />
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id} aria-label={`${supplierName(account.supplier)} ${words(account.mode)} account`}>
                <th scope="row">
                  {supplierName(account.supplier)}
                  <br />
                  <code className="hint">{account.id}</code>
                </th>
                <td>
                  {words(account.mode)} <span className="hint">({SERVES[account.mode]})</span>
                </td>
                <td>
                  <StatusBadge status={account.status} />
                </td>
                <td>{when(account.createdAt)}</td>
                <td>{account.lastUsedAt ? when(account.lastUsedAt) : "never"}</td>
                <td>
                  <button type="button" className="danger" onClick={() => setDeleting(account)}>
                    Delete…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorNote error={deletion.error} />
      {deleting ? (
        <ConfirmDialog
          title={`Delete the ${words(deleting.mode)} ${supplierName(deleting.supplier)} account?`}
          confirmLabel="Delete account"
          danger
          busy={deletion.fetching}
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            const result = await deleteAccount({ id: deleting.id });
            if (result.data) setDeleting(null);
          }}
        >
          <p>
            Its token is removed. Granted {SERVES[deleting.mode]} no longer find this supplier's offers through the platform, and orders booked through it fail their
            next call at the supplier until an account of the same mode is connected again.
          </p>
        </ConfirmDialog>
      ) : null}
      <form onSubmit={submit} className="grid-form" aria-labelledby="connect-platform-account">
        <h3 id="connect-platform-account">Connect an account</h3>
        <Field label="Supplier" error={errors.get("supplier")}>
          <select name="supplier" value={supplier} onChange={(event) => setSupplier(event.target.value)}>
            {ACCOUNT_SUPPLIERS.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Access token" error={errors.get("accessToken") ?? errors.get("access_token")} hint="duffel_test_… for sandbox tenants, duffel_live_… for live ones. It is never shown again.">
          <input name="accessToken" type="password" autoComplete="off" required value={accessToken} onChange={(event) => setAccessToken(event.target.value)} />
        </Field>
        <ErrorNote error={creation.error} fields={FORM_FIELDS} />
        <div className="actions">
          <button type="submit" className="primary" disabled={creation.fetching}>
            Connect account
          </button>
        </div>
      </form>
    </section>
  );
}

/** A supplier's name as a person knows it, its id when the console does not know it. */
export function supplierName(id: string): string {
  return ACCOUNT_SUPPLIERS.find((supplier) => supplier.id === id)?.name ?? id;
}
