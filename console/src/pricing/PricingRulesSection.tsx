import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { apiErrors } from "../api/errors";
import { useListsOf } from "../api/list-context";
import type { ConsolePricingRulesQuery } from "../generated/graphql";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { shown, words } from "../ui/format";
import { TableHead } from "../ui/TableHead";
import { CreatePricingRuleMutation, DeletePricingRuleMutation, PricingRulesQuery } from "./queries";

type Rule = ConsolePricingRulesQuery["pricingRules"]["nodes"][number];

/** What a rule adds, in words: "2.5 % + 5.00 EUR per passenger". */
function feeText({ fee }: Rule): string {
  const parts = [fee.percent ? `${fee.percent} %` : null, fee.fixedAmount ? `${fee.fixedAmount} ${fee.fixedCurrency}` : null].filter(Boolean);
  return `${parts.join(" + ")} per ${words(fee.per)}`;
}

/** What a rule matches, in words: "origin GB, business"; "every offer" when it names nothing. */
function matchText({ match }: Rule): string {
  const parts = [
    match.supplier && `supplier ${match.supplier}`,
    match.carrier && `carrier ${match.carrier}`,
    match.origin && `from ${match.origin}`,
    match.destination && `to ${match.destination}`,
    match.cabinClass && words(match.cabinClass),
    match.environment && words(match.environment),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "every offer";
}

/** Owner: the tenant's own pricing rules (its fees on offers), a new one, and removing one. */
export function PricingRulesSection({ tenantId }: { tenantId: string }) {
  const [{ data, error }] = useQuery({ query: PricingRulesQuery, variables: { tenantId }, context: useListsOf("PricingRule") });
  const [creation, createRule] = useMutation(CreatePricingRuleMutation);
  const [deletion, deleteRule] = useMutation(DeletePricingRuleMutation);
  const [form, setForm] = useState({ name: "", percent: "", fixedAmount: "", fixedCurrency: "USD", origin: "", destination: "", priority: "0", refundable: false });
  const set = (field: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [field]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fee = { ...(form.percent ? { percent: form.percent } : {}), ...(form.fixedAmount ? { fixedAmount: form.fixedAmount, fixedCurrency: form.fixedCurrency } : {}) };
    const match = { ...(form.origin ? { origin: form.origin.toUpperCase() } : {}), ...(form.destination ? { destination: form.destination.toUpperCase() } : {}) };
    const result = await createRule({ input: { tenantId, name: form.name, fee, match, priority: Number(form.priority), refundable: form.refundable } });
    if (result.data) setForm({ ...form, name: "", percent: "", fixedAmount: "", origin: "", destination: "" });
  };
  const fieldError = (field: string) => apiErrors(creation.error).find((item) => item.field === field)?.message;
  const rules = data?.pricingRules.nodes ?? [];
  return (
    <section className="card" aria-labelledby="pricing-rules">
      <h2 id="pricing-rules">Pricing rules</h2>
      <p className="hint">The platform's fee on this tenant's offers. The tenant's own rules come before platform-wide ones; the highest priority wins.</p>
      <ErrorNote error={error ?? deletion.error} />
      {rules.length > 0 ? (
        <div className="table-wrap">
          <table>
            <TableHead columns={["Name", "Fee", "Matches", "Priority", "Refundable", ""]} />
            <tbody>
              {rules.map((rule) => (
                <tr key={rule.id}>
                  <td>{shown(rule.name)}</td>
                  <td>{feeText(rule)}</td>
                  <td>{matchText(rule)}</td>
                  <td className="num">{rule.priority}</td>
                  <td>{rule.refundable ? "yes" : "no"}</td>
                  <td>
                    <button type="button" className="danger" disabled={deletion.fetching} onClick={() => deleteRule({ id: rule.id })} aria-label={`Delete rule ${rule.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No rule of its own: platform-wide rules apply, if any.</p>
      )}
      <form onSubmit={submit} className="grid-form" aria-label="New pricing rule">
        <Field label="Name" error={fieldError("name")}>
          <input name="ruleName" required maxLength={100} value={form.name} onChange={set("name")} />
        </Field>
        <Field label="Percent" error={fieldError("fee.percent")} hint="Of the offer's total, e.g. 2.5.">
          <input name="percent" inputMode="decimal" value={form.percent} onChange={set("percent")} />
        </Field>
        <Field label="Fixed amount" error={fieldError("fee.fixed_amount") ?? fieldError("fee")} hint="Per order, e.g. 5.00.">
          <input name="fixedAmount" inputMode="decimal" value={form.fixedAmount} onChange={set("fixedAmount")} />
        </Field>
        <Field label="Currency" error={fieldError("fee.fixed_currency")}>
          <input name="fixedCurrency" maxLength={3} value={form.fixedCurrency} onChange={set("fixedCurrency")} />
        </Field>
        <Field label="From" error={fieldError("match.origin")} hint="Airport, city or country code; empty: any.">
          <input name="origin" maxLength={3} value={form.origin} onChange={set("origin")} />
        </Field>
        <Field label="To" error={fieldError("match.destination")}>
          <input name="destination" maxLength={3} value={form.destination} onChange={set("destination")} />
        </Field>
        <Field label="Priority" error={fieldError("priority")}>
          <input name="priority" type="number" value={form.priority} onChange={set("priority")} />
        </Field>
        <div className="field">
          <label className="check">
            <input type="checkbox" name="refundable" checked={form.refundable} onChange={(event) => setForm({ ...form, refundable: event.target.checked })} /> A refund gives the fee back
          </label>
        </div>
        <ErrorNote error={creation.error} fields={["name", "fee", "fee.percent", "fee.fixed_amount", "fee.fixed_currency", "match.origin", "match.destination", "priority"]} />
        <div className="actions">
          <button type="submit" className="primary" disabled={creation.fetching}>
            Add rule
          </button>
        </div>
      </form>
    </section>
  );
}
