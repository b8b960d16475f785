import { useEffect, useState, type FormEvent } from "react";
import type { CombinedError } from "urql";
import { apiErrors } from "../api/errors";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";

/** What the form sets: the owner both, the tenant only its threshold. Null: no low-balance alert. */
export interface WalletSettingsInput {
  creditLimit?: string;
  lowBalanceThreshold: string | null;
}

interface WalletSettingsFormProps {
  wallet: { currency: string; creditLimit: string; lowBalanceThreshold?: string | null };
  /** The owner's form also sets the credit limit. */
  withCreditLimit: boolean;
  busy: boolean;
  error: CombinedError | undefined;
  onSave: (input: WalletSettingsInput) => Promise<unknown>;
}

const FIELDS = ["creditLimit", "lowBalanceThreshold"];

/** The wallet's credit limit (owner) and low-balance threshold, each refusal shown beside its field. */
export function WalletSettingsForm({ wallet, withCreditLimit, busy, error, onSave }: WalletSettingsFormProps) {
  const [creditLimit, setCreditLimit] = useState(wallet.creditLimit);
  const [threshold, setThreshold] = useState(wallet.lowBalanceThreshold ?? "");
  // The saved values, once the answer is in.
  useEffect(() => setCreditLimit(wallet.creditLimit), [wallet.creditLimit]);
  useEffect(() => setThreshold(wallet.lowBalanceThreshold ?? ""), [wallet.lowBalanceThreshold]);
  const fieldError = (field: string) => apiErrors(error).find((item) => item.field === field)?.message;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const lowBalanceThreshold = threshold.trim() === "" ? null : threshold.trim();
    await onSave(withCreditLimit ? { creditLimit: creditLimit.trim(), lowBalanceThreshold } : { lowBalanceThreshold });
  };
  return (
    <form onSubmit={submit} className="grid-form" aria-label="Wallet settings">
      <h3>{withCreditLimit ? "Credit limit and low-balance alert" : "Low-balance alert"}</h3>
      {withCreditLimit ? (
        <Field label={`Credit limit (${wallet.currency})`} error={fieldError("creditLimit")} hint="How far below zero the balance may go; 0 for none.">
          <input name="creditLimit" inputMode="decimal" required value={creditLimit} onChange={(event) => setCreditLimit(event.target.value)} />
        </Field>
      ) : null}
      <Field label={`Low-balance threshold (${wallet.currency})`} error={fieldError("lowBalanceThreshold")} hint="wallet.low_balance is sent when available falls below it; empty for no alert.">
        <input name="lowBalanceThreshold" inputMode="decimal" value={threshold} onChange={(event) => setThreshold(event.target.value)} />
      </Field>
      <ErrorNote error={error} fields={FIELDS} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          Save wallet settings
        </button>
      </div>
    </form>
  );
}
