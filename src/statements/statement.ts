import type { LedgerEntry, LedgerEntryType } from "../wallet/wallet";

/** A month of a tenant's wallet (docs/running-the-platform.md#statements): opening and closing balances and every movement between. */
export interface Statement {
  tenantId: string;
  tenantName: string;
  /** `YYYY-MM`, in the tenant's time zone. */
  month: string;
  timeZone: string;
  /** The month's bounds: from its first local midnight (included) to the next month's (excluded). */
  from: Date;
  to: Date;
  currency: string;
  /** Minor units of `currency`. */
  openingBalance: number;
  /** `openingBalance` plus the sum of the lines' amounts, exactly. */
  closingBalance: number;
  /** Per entry type, the sum of its lines' amounts (signed). */
  totals: Partial<Record<LedgerEntryType, number>>;
  /** The wallet's entries of the month in `currency`, oldest first, each with its order's booking reference. */
  lines: Array<LedgerEntry & { bookingReference: string | null }>;
}
