import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";

/** A hold limit: a whole number, or null for none. */
const holdLimit = z.number().int().min(0).nullable();

export const holdLimitsSchema = z
  .object({ max_unpaid_orders: holdLimit, max_unpaid_seats_per_flight: holdLimit })
  .meta({ id: "HoldLimits", description: "What the tenant may hold without paying: unpaid orders, and seats they hold on one flight (null: no limit)." });

export const walletSchema = z
  .object({
    tenant_id: z.string(),
    balance: decimalAmount,
    currency: z.string(),
    credit_limit: decimalAmount.meta({ description: "How far below zero the owner lets the balance go" }),
    reserved: decimalAmount.meta({ description: "What the tenant's unpaid orders total" }),
    available: decimalAmount.meta({ description: "balance + credit_limit − reserved: what stays once every unpaid order is paid; negative when they could not all be" }),
    low_balance_threshold: decimalAmount.nullable().meta({ description: "wallet.low_balance is sent when available falls below it; null: never" }),
    hold_limits: holdLimitsSchema,
    updated_at: timestamp,
  })
  .meta({ id: "Wallet" });

/** A ledger entry: signed amount (debits negative) and the balance after it. */
export const ledgerEntrySchema = z
  .object({
    id: z.string(),
    type: z.enum(["opening_balance", "owner_credit", "ticketing_debit", "ticketing_reversal", "refund_credit", "redenomination", "services_debit", "change_debit", "change_credit"]),
    amount: decimalAmount,
    currency: z.string(),
    balance_after: decimalAmount,
    fee_amount: decimalAmount.meta({ description: "How much of amount was the platform's fee: paid by a ticketing debit, given back by a reversal or a refund; \"0.00\" for none" }),
    order_id: z.string().nullable(),
    reference: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "LedgerEntry" });

export const walletCreditSchema = z.object({ transaction: ledgerEntrySchema, wallet: walletSchema }).meta({ id: "WalletCredit" });
