import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { actingForContext } from "../api/client";
import { newIdempotencyKey } from "../api/idempotency";
import { apiErrors } from "../api/errors";
import { useSession } from "../session/session";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { when } from "../ui/format";
import { WalletFigures } from "../wallet/WalletFigures";
import { WalletSettingsForm } from "../wallet/WalletSettingsForm";
import { CreditWalletMutation, TenantWalletQuery, UpdateTenantWalletMutation } from "./queries";

/** Owner: the tenant's wallet (read acting for it), a credit in its currency, and its credit limit and low-balance threshold. */
export function WalletCreditSection({ tenantId }: { tenantId: string }) {
  const { credentials } = useSession();
  const context = useMemo(() => actingForContext(credentials, tenantId), [credentials, tenantId]);
  // network-only: the cache keys by query and variables, not by the tenant named in the header.
  const [{ data, error }] = useQuery({ query: TenantWalletQuery, context, requestPolicy: "network-only" });
  const [credit, creditWallet] = useMutation(CreditWalletMutation);
  const [settings, updateSettings] = useMutation(UpdateTenantWalletMutation);
  // The latest answer about the wallet, whichever form gave it.
  const [latest, setLatest] = useState<"credit" | "settings" | null>(null);
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  // One key per credit the person means: a double submit credits once.
  const [idempotencyKey, setIdempotencyKey] = useState(() => newIdempotencyKey("credit"));
  const wallet = (latest === "settings" ? settings.data?.updateTenantWallet : latest === "credit" ? credit.data?.creditWallet.wallet : undefined) ?? data?.wallet;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!wallet) return;
    const result = await creditWallet({ tenantId, amount, currency: wallet.currency, reference: reference || null, idempotencyKey });
    if (result.data) {
      setLatest("credit");
      setAmount("");
      setReference("");
      setIdempotencyKey(newIdempotencyKey("credit"));
    }
  };
  const amountError = apiErrors(credit.error).find((item) => item.field === "amount")?.message;
  return (
    <section className="card" aria-labelledby="wallet-credit">
      <h2 id="wallet-credit">Wallet</h2>
      <ErrorNote error={error} />
      {wallet ? (
        <>
          <WalletFigures wallet={wallet} />
          <p className="hint" data-testid="tenant-balance-as-of">
            as of {when(wallet.updatedAt)}
          </p>
          <WalletSettingsForm
            wallet={wallet}
            withCreditLimit
            busy={settings.fetching}
            error={settings.error}
            onSave={async (input) => {
              const result = await updateSettings({ tenantId, input });
              if (result.data) setLatest("settings");
            }}
          />
        </>
      ) : null}
      <form onSubmit={submit} className="grid-form" aria-label="Credit">
        <h3>Credit the wallet</h3>
        <Field label={`Credit (${wallet?.currency ?? "…"})`} error={amountError} hint="A decimal amount, e.g. 250.00.">
          <input name="amount" inputMode="decimal" required pattern="[0-9]+(\.[0-9]{1,2})?" value={amount} onChange={(event) => setAmount(event.target.value)} />
        </Field>
        <Field label="Reference" hint="Optional, e.g. a bank transfer's reference.">
          <input name="reference" maxLength={200} value={reference} onChange={(event) => setReference(event.target.value)} />
        </Field>
        <ErrorNote error={credit.error} fields={["amount"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={!wallet || credit.fetching}>
            Credit wallet
          </button>
        </div>
      </form>
    </section>
  );
}
