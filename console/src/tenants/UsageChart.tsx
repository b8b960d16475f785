import type { ConsoleTenantUsageQuery } from "../generated/graphql";
import { MetricChart } from "../ui/MetricChart";
import { TableHead } from "../ui/TableHead";

type UsageDay = NonNullable<ConsoleTenantUsageQuery["tenant"]>["usage"]["daily"][number];

const METRICS: ReadonlyArray<{ label: string; value(day: UsageDay): number; colour: string }> = [
  { label: "API requests", value: (day) => day.apiRequests, colour: "#2f5d9e" },
  { label: "Searches", value: (day) => day.searches, colour: "#6b4fa3" },
  { label: "Orders", value: (day) => day.orders, colour: "#1f7a55" },
  { label: "Tickets", value: (day) => day.tickets, colour: "#b3591a" },
  { label: "Spend", value: (day) => Number(day.walletSpend.amount), colour: "#9e2f4d" },
];

/** One small chart per metric (their scales differ by orders of magnitude), and the figures as a table. */
export function UsageChart({ days }: { days: readonly UsageDay[] }) {
  const currency = days[0]?.walletSpend.currency ?? "";
  return (
    <>
      <div className="charts">
        {METRICS.map((metric) => (
          <MetricChart key={metric.label} label={metric.label === "Spend" ? `Spend (${currency})` : metric.label} colour={metric.colour} days={days} value={metric.value} />
        ))}
      </div>
      <details>
        <summary>The figures, day by day</summary>
        <div className="table-wrap">
          <table>
            <TableHead columns={["Day (UTC)", ...METRICS.map((metric) => metric.label)]} />
            <tbody>
              {days.map((day) => (
                <tr key={day.date}>
                  <th scope="row">{day.date}</th>
                  <td>{day.apiRequests}</td>
                  <td>{day.searches}</td>
                  <td>{day.orders}</td>
                  <td>{day.tickets}</td>
                  <td>{day.walletSpend.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
