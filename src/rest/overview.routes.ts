import { z } from "zod";
import { formatMinor } from "../money/format";
import type { OverviewFigures } from "../overview/overview";
import { decimalAmount, ok, okSchema } from "./envelope";
import { restRoute } from "./route";
import { calendarDate } from "../validation/input-values";

const usd = (amount: number) => formatMinor(amount, "USD");

const figuresSchema = {
  searches: z.int(),
  orders_booked: z.int(),
  orders_ticketed: z.int(),
  gross_booking_value: decimalAmount.meta({ description: "USD: tickets paid from wallets, less debits reversed" }),
  fees_earned: decimalAmount.meta({ description: "USD: the platform's fees paid with tickets, less those given back" }),
  refunds: decimalAmount.meta({ description: "USD: refunds credited to wallets" }),
  look_to_book: z.number().nullable().meta({ description: "Searches per ticketed order; null with none ticketed" }),
  webhook_failure_rate: z.number().nullable().meta({ description: "Failed webhook deliveries over all deliveries, 0–1; null with none" }),
};

export const overviewSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    currency: z.literal("USD"),
    totals: z.object(figuresSchema),
    tenants: z.array(z.object({ tenant_id: z.string(), name: z.string(), status: z.string(), ...figuresSchema })),
    days: z.array(z.object({ date: z.string(), searches: z.int(), orders_ticketed: z.int(), gross_booking_value: decimalAmount, fees_earned: decimalAmount })),
  })
  .meta({ id: "Overview" });

function figuresView(figures: OverviewFigures) {
  return {
    searches: figures.searches,
    orders_booked: figures.ordersBooked,
    orders_ticketed: figures.ordersTicketed,
    gross_booking_value: usd(figures.grossBookingValue),
    fees_earned: usd(figures.feesEarned),
    refunds: usd(figures.refunds),
    look_to_book: figures.lookToBook,
    webhook_failure_rate: figures.webhookFailureRate,
  };
}

/** The owner's overview of the platform (docs/running-the-platform.md#overview). */
export const overviewRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/overview",
    operation: "overview",
    summary: "The platform per tenant and per day, from–to (UTC days, at most 366; default the last 30): searches, orders, tickets, gross booking value and fees in USD, look-to-book, webhook failure rate",
    tag: "Tenants (owner)",
    query: z.object({ from: calendarDate.optional(), to: calendarDate.optional() }),
    response: okSchema(overviewSchema),
    errors: ["invalid_field_value"],
    handle: async ({ ctx, query }) => {
      const overview = await ctx.services.overview.overview(query.from, query.to);
      return ok({
        from: overview.from,
        to: overview.to,
        currency: "USD" as const,
        totals: figuresView(overview.totals),
        tenants: overview.tenants.map((tenant) => ({ tenant_id: tenant.tenantId, name: tenant.name, status: tenant.status, ...figuresView(tenant) })),
        days: overview.days.map((day) => ({ date: day.date, searches: day.searches, orders_ticketed: day.ordersTicketed, gross_booking_value: usd(day.grossBookingValue), fees_earned: usd(day.feesEarned) })),
      });
    },
  }),
];
