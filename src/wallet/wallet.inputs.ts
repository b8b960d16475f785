import { z } from "zod";
import { appError } from "../errors/app-error";
import { parseMinor } from "../money/format";
import { amountInCurrencyStatement } from "../money/amount-statement";
import { shownText } from "../validation/shown-text";
import { parseInput } from "../validation/parse-input";
import type { WalletCredit, WalletSettings } from "./wallet.service";
import { MAX_HOLD_LIMIT } from "./hold-limits";

/** Owner: credit a tenant's wallet (POST /v1/tenants/:id/wallet/credits, Mutation.creditWallet). */
export const creditWalletInput = z
  .strictObject({
    amount: z.string().min(1),
    currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code, e.g. USD"),
    // Shown in the ledger and the console: no character that hides or turns text (422), and
    // something besides the whitespace around it, which is trimmed.
    reference: shownText({ min: 1, max: 200 }).optional(),
  })
  // walletCredit's rule for the amount, stated.
  .meta(amountInCurrencyStatement("amount", "currency", { positive: true }));

/** The credit in minor units: a positive decimal with at most the currency's decimals (400 otherwise). */
export function walletCredit(input: z.output<typeof creditWalletInput>): WalletCredit {
  const amount = parseMinor(input.amount, input.currency);
  if (amount === null || amount === 0) {
    throw appError("validation_failed", { field: "amount", message: `amount: must be a positive amount in ${input.currency}, e.g. 250.00` });
  }
  return { amount, currency: input.currency, reference: input.reference ?? null };
}

/** A hold limit as the owner sets it: a whole number from 0, or null for none. */
const holdLimit = z
  .number({ error: `must be a whole number from 0 to ${MAX_HOLD_LIMIT}, or null for no limit` })
  .int(`must be a whole number from 0 to ${MAX_HOLD_LIMIT}, or null for no limit`)
  .min(0, `must be a whole number from 0 to ${MAX_HOLD_LIMIT}, or null for no limit`)
  .max(MAX_HOLD_LIMIT, `must be a whole number from 0 to ${MAX_HOLD_LIMIT}, or null for no limit`)
  .nullable();

/**
 * Owner: a wallet's settings (PATCH /v1/tenants/:id/wallet, Mutation.updateTenantWallet), only
 * the fields given changing. Any invalid field is 422 `invalid_field_value` naming it.
 */
export const updateTenantWalletInput = z
  .strictObject({
    hold_limits: z
      .strictObject({ max_unpaid_orders: holdLimit.optional(), max_unpaid_seats_per_flight: holdLimit.optional() })
      .refine((limits) => Object.keys(limits).length > 0, { message: "name at least one limit" })
      .meta({ minProperties: 1 })
      .optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "send at least one setting" })
  .meta({ minProperties: 1 });

export type UpdateTenantWalletInput = z.output<typeof updateTenantWalletInput>;

export function parseUpdateTenantWallet(body: unknown): UpdateTenantWalletInput {
  return parseInput(updateTenantWalletInput, body, "invalid_field_value");
}

/** The settings a patch names, a field left out staying as it is. */
export function walletSettings(input: UpdateTenantWalletInput): WalletSettings {
  const limits = input.hold_limits;
  if (!limits) return {};
  return {
    holdLimits: {
      ...(limits.max_unpaid_orders !== undefined && { maxUnpaidOrders: limits.max_unpaid_orders }),
      ...(limits.max_unpaid_seats_per_flight !== undefined && { maxUnpaidSeatsPerFlight: limits.max_unpaid_seats_per_flight }),
    },
  };
}
