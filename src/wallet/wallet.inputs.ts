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
 * An amount of the wallet's own currency, not negative: at most as many decimals as any currency
 * has (three); how many the wallet's currency takes is stored state, checked by `walletAmount`.
 */
const walletAmountText = z
  .string()
  .regex(/^\d{1,13}(\.\d{1,3})?$/, "must be a decimal amount from 0 in the wallet's currency, e.g. 5000.00")
  .meta({ "x-rule": "no more decimals than the wallet's currency has (USD two, JPY none, BHD three)" });

/** A low-balance threshold: an amount, or null for no alert. */
const lowBalanceThreshold = walletAmountText.nullable();

/**
 * Owner: a wallet's settings (PATCH /v1/tenants/:id/wallet, Mutation.updateTenantWallet), only
 * the fields given changing. Any invalid field is 422 `invalid_field_value` naming it.
 */
export const updateTenantWalletInput = z
  .strictObject({
    credit_limit: walletAmountText.optional(),
    low_balance_threshold: lowBalanceThreshold.optional(),
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

/** Tenant: its wallet's own settings (PATCH /v1/wallet, Mutation.updateWallet): the low-balance threshold. */
export const updateWalletInput = z.strictObject({ low_balance_threshold: lowBalanceThreshold });

export type UpdateWalletInput = z.output<typeof updateWalletInput>;

export function parseUpdateWallet(body: unknown): UpdateWalletInput {
  return parseInput(updateWalletInput, body, "invalid_field_value");
}

/** The settings a patch names, a field left out staying as it is. */
export function walletSettings(input: Partial<UpdateTenantWalletInput>): WalletSettings {
  const limits = input.hold_limits;
  return {
    ...(input.credit_limit !== undefined && { creditLimit: input.credit_limit }),
    ...(input.low_balance_threshold !== undefined && { lowBalanceThreshold: input.low_balance_threshold }),
    ...(limits && {
      holdLimits: {
        ...(limits.max_unpaid_orders !== undefined && { maxUnpaidOrders: limits.max_unpaid_orders }),
        ...(limits.max_unpaid_seats_per_flight !== undefined && { maxUnpaidSeatsPerFlight: limits.max_unpaid_seats_per_flight }),
      },
    }),
  };
}
