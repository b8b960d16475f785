/** The platform's figures over a span of UTC days (docs/running-the-platform.md#overview), money in USD minor units. */
export interface Overview {
  from: string;
  to: string;
  totals: OverviewFigures;
  tenants: Array<OverviewFigures & { tenantId: string; name: string; status: string }>;
  days: Array<Pick<OverviewFigures, "searches" | "ordersTicketed" | "grossBookingValue" | "feesEarned"> & { date: string }>;
}

export interface OverviewFigures {
  searches: number;
  ordersBooked: number;
  ordersTicketed: number;
  /** Tickets paid from wallets, less the debits reversed (a ticketing that failed). */
  grossBookingValue: number;
  /** The platform's fees paid with tickets, less those given back (reversals, refundable fees refunded). */
  feesEarned: number;
  /** Refunds credited to wallets. */
  refunds: number;
  /** Searches per ticketed order; null with none ticketed. */
  lookToBook: number | null;
  /** Failed webhook deliveries over all deliveries, 0–1; null with none. */
  webhookFailureRate: number | null;
  /** Deliveries, and failed ones, behind the rate. */
  webhookDeliveries: number;
  webhookFailures: number;
}

/** Zeroed figures, for a tenant or a day with no activity. */
export function emptyFigures(): OverviewFigures {
  return { searches: 0, ordersBooked: 0, ordersTicketed: 0, grossBookingValue: 0, feesEarned: 0, refunds: 0, lookToBook: null, webhookFailureRate: null, webhookDeliveries: 0, webhookFailures: 0 };
}

/** The ratios from the counts: look-to-book and the webhook failure rate (both rounded to 4 decimals). */
export function withRatios(figures: OverviewFigures): OverviewFigures {
  const round = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    ...figures,
    lookToBook: figures.ordersTicketed === 0 ? null : round(figures.searches / figures.ordersTicketed),
    webhookFailureRate: figures.webhookDeliveries === 0 ? null : round(figures.webhookFailures / figures.webhookDeliveries),
  };
}
