import { clock } from "../clock";
import { dayRange, sqlUtcDay, utcDay, type DayRange } from "../db/daily-buckets";
import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { sqlTimestamp } from "../db/sql-values";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { convertMinor } from "../money/exchange-rates";
import type { UsageMeter } from "../tenants/usage-meter";
import { emptyFigures, withRatios, type Overview, type OverviewFigures } from "./overview";

const DAY_MS = 86_400_000;
/** The longest span an overview covers; the default is the last 30 days. */
export const MAX_OVERVIEW_DAYS = 366;
const DEFAULT_DAYS = 30;

type Row = { tenantId: string; day: string };

/**
 * The owner's overview of the platform (docs/running-the-platform.md#overview): per tenant and per
 * UTC day, searches, orders booked and ticketed, gross booking value, fees earned, refunds,
 * look-to-book and the webhook failure rate, counted from each module's own rows. Money is in USD
 * at the static rate table.
 */
export class OverviewService {
  constructor(
    private readonly db: Database,
    private readonly usage: UsageMeter,
  ) {}

  /**
   * The overview of `from`–`to` (UTC days, both included; default the last 30 days to today).
   * 400 `validation_failed` naming the field for a malformed date or `to` before `from`; 422
   * `invalid_field_value` for a span past 366 days.
   */
  async overview(from: string | undefined, to: string | undefined): Promise<Overview> {
    const today = utcDay(clock.now());
    const last = to ?? today;
    // The default `from` counts back from `to`; a malformed `to` is refused by dayRange below, naming it.
    const lastStart = Date.parse(`${last}T00:00:00Z`);
    const first = from ?? (Number.isNaN(lastStart) ? today : utcDay(new Date(lastStart - (DEFAULT_DAYS - 1) * DAY_MS)));
    const range = dayRange(first, last);
    if (range.days.length > MAX_OVERVIEW_DAYS) throw appError("invalid_field_value", { field: "to", message: `to: an overview covers at most ${MAX_OVERVIEW_DAYS} days` });
    await this.usage.flush();
    const [tenants, searches, booked, ticketed, money, deliveries] = await Promise.all([
      this.db.prisma.tenant.findMany({ where: { status: { not: "deleted" } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true, status: true } }),
      this.db.prisma.dailyUsageCounter.findMany({ where: { metric: "searches", day: { gte: range.days[0]!, lte: range.days.at(-1)! } } }),
      this.grouped(range, "Order", Sql.sql`COUNT(*)`),
      this.grouped(range, "OrderEvent", Sql.sql`COUNT(*)`, Sql.sql`"type" = 'order.ticketed'`),
      this.ledger(range),
      this.deliveries(range),
    ]);
    const byTenant = new Map<string, OverviewFigures>();
    const byDay = new Map<string, OverviewFigures>(range.days.map((day) => [day, emptyFigures()]));
    const add = (tenantId: string, day: string, change: Partial<OverviewFigures>) => {
      for (const figures of [byTenant.get(tenantId) ?? byTenant.set(tenantId, emptyFigures()).get(tenantId)!, byDay.get(day)]) {
        if (!figures) continue;
        for (const [key, value] of Object.entries(change) as Array<[keyof OverviewFigures, number]>) (figures[key] as number) += value;
      }
    };
    for (const row of searches) add(row.tenantId, row.day, { searches: Number(row.count) });
    for (const row of booked) add(row.tenantId, row.day, { ordersBooked: row.figure });
    for (const row of ticketed) add(row.tenantId, row.day, { ordersTicketed: row.figure });
    for (const row of money) add(row.tenantId, row.day, moneyFigures(row));
    for (const row of deliveries) add(row.tenantId, row.day, { webhookDeliveries: row.figure, webhookFailures: row.failed });

    const tenantRows = tenants.map((tenant) => ({ tenantId: tenant.id, name: tenant.name, status: tenant.status, ...withRatios(byTenant.get(tenant.id) ?? emptyFigures()) }));
    const totals = withRatios(tenantRows.reduce((sum, tenant) => sumFigures(sum, tenant), emptyFigures()));
    const days = range.days.map((date) => {
      const { searches: daySearches, ordersTicketed, grossBookingValue, feesEarned } = byDay.get(date)!;
      return { date, searches: daySearches, ordersTicketed, grossBookingValue, feesEarned };
    });
    return { from: range.days[0]!, to: range.days.at(-1)!, totals, tenants: tenantRows, days };
  }

  /** `figure` of `table`'s rows per tenant and UTC day of the range. */
  private grouped(range: DayRange, table: string, figure: Sql.Sql, where: Sql.Sql = Sql.sql`1 = 1`) {
    const createdAt = Sql.raw(`"${table}"."createdAt"`);
    return queryRows<Row & { figure: number }>(
      this.db,
      Sql.sql`SELECT "tenantId", ${sqlUtcDay(this.db.provider, createdAt)} AS "day", CAST(${figure} AS BIGINT) AS "figure" FROM ${Sql.raw(`"${table}"`)}
        WHERE ${this.within(createdAt, range)} AND ${where} GROUP BY 1, 2`,
    ).then((rows) => rows.map((row) => ({ ...row, figure: Number(row.figure) })));
  }

  /** The wallets' movements that make the money figures, per tenant, day, type and currency. */
  private ledger(range: DayRange) {
    const createdAt = Sql.raw(`"LedgerEntry"."createdAt"`);
    return queryRows<Row & { type: string; currency: string; amount: number; fee: number }>(
      this.db,
      Sql.sql`SELECT "tenantId", ${sqlUtcDay(this.db.provider, createdAt)} AS "day", CAST("type" AS TEXT) AS "type", "currency",
          CAST(SUM("amount") AS BIGINT) AS "amount", CAST(SUM("feeAmount") AS BIGINT) AS "fee"
        FROM "LedgerEntry"
        WHERE ${this.within(createdAt, range)} AND CAST("type" AS TEXT) IN ('ticketing_debit', 'ticketing_reversal', 'refund_credit')
        GROUP BY 1, 2, 3, 4`,
    );
  }

  /** Webhook deliveries made in the range, and how many failed, per tenant and day. */
  private deliveries(range: DayRange) {
    const createdAt = Sql.raw(`"WebhookDelivery"."createdAt"`);
    return queryRows<Row & { figure: number; failed: number }>(
      this.db,
      Sql.sql`SELECT "tenantId", ${sqlUtcDay(this.db.provider, createdAt)} AS "day", CAST(COUNT(*) AS BIGINT) AS "figure",
          CAST(SUM(CASE WHEN CAST("status" AS TEXT) = 'failed' THEN 1 ELSE 0 END) AS BIGINT) AS "failed"
        FROM "WebhookDelivery" WHERE ${this.within(createdAt, range)} GROUP BY 1, 2`,
    ).then((rows) => rows.map((row) => ({ ...row, figure: Number(row.figure), failed: Number(row.failed) })));
  }

  private within(createdAt: Sql.Sql, range: DayRange): Sql.Sql {
    return Sql.sql`${createdAt} >= ${sqlTimestamp(this.db.provider, range.startsAt)} AND ${createdAt} < ${sqlTimestamp(this.db.provider, range.endsBefore)}`;
  }
}

/** A ledger group's money figures in USD: debits add to the booking value and fees, reversals take back, refunds count apart and give back refunded fees. */
function moneyFigures(row: { type: string; currency: string; amount: number; fee: number }): Partial<OverviewFigures> {
  const usd = (amount: number) => convertMinor(Number(amount), row.currency, "USD");
  if (row.type === "ticketing_debit") return { grossBookingValue: usd(-row.amount), feesEarned: usd(row.fee) };
  if (row.type === "ticketing_reversal") return { grossBookingValue: -usd(row.amount), feesEarned: -usd(row.fee) };
  return { refunds: usd(row.amount), feesEarned: -usd(row.fee) };
}

function sumFigures(sum: OverviewFigures, add: OverviewFigures): OverviewFigures {
  return {
    ...sum,
    searches: sum.searches + add.searches,
    ordersBooked: sum.ordersBooked + add.ordersBooked,
    ordersTicketed: sum.ordersTicketed + add.ordersTicketed,
    grossBookingValue: sum.grossBookingValue + add.grossBookingValue,
    feesEarned: sum.feesEarned + add.feesEarned,
    refunds: sum.refunds + add.refunds,
    webhookDeliveries: sum.webhookDeliveries + add.webhookDeliveries,
    webhookFailures: sum.webhookFailures + add.webhookFailures,
  };
}
