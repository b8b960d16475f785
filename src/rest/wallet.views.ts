import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { LedgerEntry, Wallet } from "../wallet/wallet";
import type { ledgerEntrySchema, walletSchema } from "./wallet.schemas";

export function walletView(wallet: Wallet): z.output<typeof walletSchema> {
  return {
    tenant_id: wallet.tenantId,
    balance: formatMinor(wallet.balance, wallet.currency),
    currency: wallet.currency,
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
