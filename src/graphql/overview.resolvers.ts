import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";

const usd = (amount: number) => formatMinor(amount, "USD");

/** The owner's overview of the platform (docs/running-the-platform.md#overview), the twin of GET /v1/overview. */
export const overviewResolvers: Resolvers = {
  Query: {
    overview: (_parent, { from, to }, ctx) => ctx.services.overview.overview(from ?? undefined, to ?? undefined),
  },
  Overview: {
    currency: () => "USD",
    tenants: (overview) => overview.tenants.map((tenant) => ({ tenantId: tenant.tenantId, name: tenant.name, status: tenant.status, figures: tenant })),
    days: (overview) => overview.days.map((day) => ({ ...day, grossBookingValue: usd(day.grossBookingValue), feesEarned: usd(day.feesEarned) })),
  },
  OverviewFigures: {
    grossBookingValue: (figures) => usd(figures.grossBookingValue),
    feesEarned: (figures) => usd(figures.feesEarned),
    refunds: (figures) => usd(figures.refunds),
  },
};
