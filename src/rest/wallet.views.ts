import { formatMinor } from "../money/format";
import type { LedgerEntry, Wallet } from "../wallet/wallet";

export function walletView(wallet: Wallet) {
  return {
    tenant_id: wallet.tenantId,
    balance: formatMinor(wallet.balance, wallet.currency),
    currency: wallet.currency,
    updated_at: wallet.updatedAt.toISOString(),
  };
}

/** A ledger entry: signed amount (debits negative) and the balance after it. */
export function ledgerEntryView(entry: LedgerEntry) {
  return {
    id: entry.id,
    type: entry.type,
    amount: formatMinor(entry.amount, entry.currency),
    currency: entry.currency,
    balance_after: formatMinor(entry.balanceAfter, entry.currency),
    order_id: entry.orderId,
    reference: entry.reference,
    created_at: entry.createdAt.toISOString(),
  };
}
