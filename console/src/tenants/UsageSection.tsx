import { lazy, Suspense, useState } from "react";
import { useQuery } from "urql";
import { ErrorNote } from "../ui/ErrorNote";
import { money } from "../ui/format";
import { TenantUsageQuery } from "./queries";

/** The chart library is fetched only when a usage section is shown. */
const UsageChart = lazy(async () => ({ default: (await import("./UsageChart")).UsageChart }));

const RANGES = [7, 30, 90, 365] as const;
const DAY_MS = 86_400_000;

/** The UTC days from `days - 1` days ago to today, as the API counts them. */
function lastDays(days: number): { from: string; to: string } {
  const today = Date.now();
  return { from: new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10), to: new Date(today).toISOString().slice(0, 10) };
}

/** Owner: a tenant's usage since creation, and per UTC day over a chosen range. */
export function UsageSection({ tenantId }: { tenantId: string }) {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const [{ data, error }] = useQuery({ query: TenantUsageQuery, variables: { id: tenantId, ...lastDays(days) } });
  const usage = data?.tenant?.usage;
  return (
    <section className="card" aria-labelledby="usage">
      <h2 id="usage">Usage</h2>
      <ErrorNote error={error} />
      {usage ? (
        <dl className="facts totals">
          <dt>API requests</dt>
          <dd>{usage.apiRequests}</dd>
          <dt>Searches</dt>
          <dd>{usage.searches}</dd>
          <dt>Orders</dt>
          <dd>{usage.ordersTotal}</dd>
          <dt>Tickets</dt>
          <dd>{usage.tickets}</dd>
          <dt>Spend</dt>
          <dd>{money(usage.walletSpend.amount, usage.walletSpend.currency)}</dd>
          <dt>Webhooks</dt>
          <dd>
            {usage.webhookDeliveries.succeeded} delivered, {usage.webhookDeliveries.failed} failed, {usage.webhookDeliveries.pending} pending
          </dd>
        </dl>
      ) : null}
      <div className="segmented" role="group" aria-label="Range">
        {RANGES.map((range) => (
          <button key={range} type="button" aria-pressed={days === range} onClick={() => setDays(range)}>
            {range} days
          </button>
        ))}
      </div>
      {usage ? (
        <Suspense fallback={<p>Loading the chart…</p>}>
          <UsageChart days={usage.daily} />
        </Suspense>
      ) : null}
    </section>
  );
}
