import { useQuery } from "urql";
import { Link, useSearchParams } from "wouter";
import type { ConsoleOverviewQuery } from "../generated/graphql";
import { ErrorNote } from "../ui/ErrorNote";
import { Field } from "../ui/Field";
import { shown } from "../ui/format";
import { MetricChart } from "../ui/MetricChart";
import { PageHeading } from "../ui/PageHeading";
import { OverviewQuery } from "./queries";

type OverviewData = ConsoleOverviewQuery["overview"];
type TenantRow = OverviewData["tenants"][number];
type Day = OverviewData["days"][number];

/** The tenants table's columns: each sorts the table (the sort is in the URL, so a view can be shared). */
const COLUMNS: ReadonlyArray<{ key: string; label: string; value(row: TenantRow): number | string | null; numeric: boolean }> = [
  { key: "name", label: "Tenant", value: (row) => row.name.toLowerCase(), numeric: false },
  { key: "searches", label: "Searches", value: (row) => row.figures.searches, numeric: true },
  { key: "booked", label: "Booked", value: (row) => row.figures.ordersBooked, numeric: true },
  { key: "ticketed", label: "Ticketed", value: (row) => row.figures.ordersTicketed, numeric: true },
  { key: "gbv", label: "Gross booking value", value: (row) => Number(row.figures.grossBookingValue), numeric: true },
  { key: "fees", label: "Fees earned", value: (row) => Number(row.figures.feesEarned), numeric: true },
  { key: "refunds", label: "Refunds", value: (row) => Number(row.figures.refunds), numeric: true },
  { key: "l2b", label: "Look-to-book", value: (row) => row.figures.lookToBook, numeric: true },
  { key: "webhooks", label: "Webhook failures", value: (row) => row.figures.webhookFailureRate, numeric: true },
];

const CHARTS: ReadonlyArray<{ label: string; colour: string; value(day: Day): number; amount?: boolean }> = [
  { label: "Searches", colour: "#6b4fa3", value: (day) => day.searches },
  { label: "Tickets", colour: "#b3591a", value: (day) => day.ordersTicketed },
  { label: "Gross booking value (USD)", colour: "#2f5d9e", value: (day) => Number(day.grossBookingValue), amount: true },
  { label: "Fees earned (USD)", colour: "#1f7a55", value: (day) => Number(day.feesEarned), amount: true },
];

const SPANS = [7, 30, 90, 366] as const;
const DAY_MS = 86_400_000;

const rate = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)} %`);
const ratio = (value: number | null) => (value === null ? "—" : value.toFixed(1));

/** Owner home: the platform's totals, a chart per day, and the tenants side by side, sortable by each column. */
export function OverviewPage() {
  const [params, setParams] = useSearchParams();
  const span = Number(params.get("days") ?? 30);
  const sortKey = params.get("sort") ?? "fees";
  const descending = params.get("dir") !== "asc";
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (span - 1) * DAY_MS).toISOString().slice(0, 10);
  const [{ data, error, fetching }] = useQuery({ query: OverviewQuery, variables: { from, to } });
  const overview = data?.overview;
  const setParam = (changes: Record<string, string>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [name, value] of Object.entries(changes)) next.set(name, value);
      return next;
    });
  const sortBy = (key: string) => setParam({ sort: key, dir: key === sortKey && descending ? "asc" : "desc" });
  const column = COLUMNS.find((each) => each.key === sortKey) ?? COLUMNS[5]!;
  const rows = [...(overview?.tenants ?? [])].sort((a, b) => {
    const [x, y] = [column.value(a), column.value(b)];
    if (x === y) return a.name.localeCompare(b.name);
    if (x === null) return 1;
    if (y === null) return -1;
    return (x < y ? -1 : 1) * (descending ? -1 : 1);
  });
  return (
    <>
      <PageHeading title="Overview" />
      <section className="card" aria-labelledby="overview-span">
        <h2 id="overview-span">Period</h2>
        <div className="grid-form">
          <Field label="Days" hint="UTC days up to today.">
            <select name="days" value={String(span)} onChange={(event) => setParam({ days: event.target.value })}>
              {SPANS.map((days) => (
                <option key={days} value={days}>
                  Last {days} days
                </option>
              ))}
            </select>
          </Field>
        </div>
      </section>
      <ErrorNote error={error} />
      {overview ? (
        <>
          <section className="card" aria-labelledby="totals">
            <h2 id="totals">
              Totals, {overview.from} to {overview.to}
            </h2>
            <dl className="totals" data-testid="overview-totals">
              <div>
                <dt>Fees earned</dt>
                <dd>{overview.totals.feesEarned} USD</dd>
              </div>
              <div>
                <dt>Gross booking value</dt>
                <dd>{overview.totals.grossBookingValue} USD</dd>
              </div>
              <div>
                <dt>Tickets</dt>
                <dd>{overview.totals.ordersTicketed}</dd>
              </div>
              <div>
                <dt>Searches</dt>
                <dd>{overview.totals.searches}</dd>
              </div>
              <div>
                <dt>Look-to-book</dt>
                <dd>{ratio(overview.totals.lookToBook)}</dd>
              </div>
              <div>
                <dt>Webhook failures</dt>
                <dd>{rate(overview.totals.webhookFailureRate)}</dd>
              </div>
            </dl>
          </section>
          <section className="card" aria-labelledby="per-day">
            <h2 id="per-day">Per day</h2>
            <div className="charts">
              {CHARTS.map((chart) => (
                <MetricChart key={chart.label} label={chart.label} colour={chart.colour} days={overview.days} value={chart.value} amount={chart.amount ?? false} />
              ))}
            </div>
          </section>
          <section className="card" aria-labelledby="by-tenant">
            <h2 id="by-tenant">Tenants</h2>
            <div className="table-wrap">
              <table data-testid="overview-tenants">
                <caption>
                  {rows.length} tenants, by {column.label.toLowerCase()} {descending ? "(highest first)" : "(lowest first)"}; money in USD
                </caption>
                <thead>
                  <tr>
                    {COLUMNS.map((each) => (
                      <th scope="col" key={each.key} aria-sort={each.key === sortKey ? (descending ? "descending" : "ascending") : undefined}>
                        <button type="button" className="sort" onClick={() => sortBy(each.key)}>
                          {each.label}
                          {each.key === sortKey ? (descending ? " ▼" : " ▲") : ""}
                        </button>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.tenantId}>
                      <th scope="row">
                        <Link href={`/tenants/${row.tenantId}`}>{shown(row.name)}</Link>
                      </th>
                      <td className="num">{row.figures.searches}</td>
                      <td className="num">{row.figures.ordersBooked}</td>
                      <td className="num">{row.figures.ordersTicketed}</td>
                      <td className="num">{row.figures.grossBookingValue}</td>
                      <td className="num">{row.figures.feesEarned}</td>
                      <td className="num">{row.figures.refunds}</td>
                      <td className="num">{ratio(row.figures.lookToBook)}</td>
                      <td className="num">{rate(row.figures.webhookFailureRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      ) : fetching ? (
        <p>Loading…</p>
      ) : null}
    </>
  );
}
