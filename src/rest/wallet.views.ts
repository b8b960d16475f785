import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { LedgerEntry, WalletStanding } from "../wallet/wallet";
import type { ledgerEntrySchema, walletSchema } from "./wallet.schemas";

export function walletView(wallet: WalletStanding): z.output<typeof walletSchema> {
  const money = (amount: number) => formatMinor(amount, wallet.currency);
  return {
    tenant_id: wallet.tenantId,
    balance: money(wallet.balance),
    currency: wallet.currency,
    credit_limit: money(wallet.creditLimit),
    reserved: money(wallet.reserved),
    available: money(wallet.available),
    low_balance_threshold: wallet.lowBalanceThreshold === null ? null : money(wallet.lowBalanceThreshold),
    hold_limits: { max_unpaid_orders: wallet.holdLimits.maxUnpaidOrders, max_unpaid_seats_per_flight: wallet.holdLimits.maxUnpaidSeatsPerFlight },
    updated_at: wallet.updatedAt.toISOString(),
  };
}

/** A ledger entry: signed amount (debits negative) and the balance after it. */
export function ledgerEntryView(entry: LedgerEntry): z.output<typeof ledgerEntrySchema> {
  return {
    id: entry.id,
    type: entry.type,
    amount: formatMinor(entry.amount, entry.currency),
    currency: entry.currency,
    balance_after: formatMinor(entry.balanceAfter, entry.currency),
    fee_amount: formatMinor(entry.feeAmount, entry.currency),
    order_id: entry.orderId,
    reference: entry.reference,
    created_at: entry.createdAt.toISOString(),
  };
}
