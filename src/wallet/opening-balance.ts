import { newId } from "../ids";
import { minorDigits } from "../money/format";
import { defaultHoldLimits } from "./hold-limits";

/** Play money a sandbox tenant starts with, in major units of its currency (docs/rest-api.md#wallet). */
export const SANDBOX_OPENING_UNITS = 100_000;

/**
 * The wallet a new tenant is created with, as Prisma nested-create data for the tenant: sandbox
 * tenants open with 100000.00 of play money (one `opening_balance` entry, so the ledger sums to
 * the balance), live ones with nothing; each with its environment's hold limits.
 */
export function openingWallet(environment: "sandbox" | "live", currency: string, now: Date) {
  const balance = environment === "sandbox" ? SANDBOX_OPENING_UNITS * 10 ** minorDigits(currency) : 0;
  return {
    wallet: { create: { currency, balance, ...defaultHoldLimits(environment), updatedAt: now } },
    ledgerEntries: {
      create:
        balance === 0
          ? []
          : [{ id: newId("wtx", now.getTime()), type: "opening_balance" as const, amount: balance, currency, balanceAfter: balance, createdAt: now }],
    },
  };
}
