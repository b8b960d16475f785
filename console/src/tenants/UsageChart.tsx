import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ConsoleTenantUsageQuery } from "../generated/graphql";
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

function MetricChart({ label, colour, days, value }: { label: string; colour: string; days: readonly UsageDay[]; value(day: UsageDay): number }) {
  const container = useRef<HTMLDivElement>(null);
  const total = days.reduce((sum, day) => sum + value(day), 0);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const data: uPlot.AlignedData = [days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000), days.map(value)];
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: 140,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, Math.max(1, max)] } },
        axes: [{ stroke: "#555", grid: { show: false } }, { stroke: "#555", size: 56, grid: { stroke: "#e3e6ea" } }],
        series: [{}, { label, stroke: colour, width: 2, fill: `${colour}22`, points: { show: days.length <= 31 } }],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 140 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, value, label, colour]);
  const rounded = label.startsWith("Spend") ? total.toFixed(2) : String(total);
  return (
    <figure className="chart">
      <figcaption>
        {label}: <strong>{rounded}</strong> over {days.length} days
      </figcaption>
      <div ref={container} role="img" aria-label={`${label} per day: ${rounded} over ${days.length} days; the figures are in the table below.`} />
    </figure>
  );
}
