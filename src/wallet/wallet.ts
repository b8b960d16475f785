import { exactNumber } from "../db/sql-values";
import type { LedgerEntryType } from "../generated/prisma-sqlite/client";

/** A tenant's prepaid balance, in minor units of `currency`. */
export interface Wallet {
  tenantId: string;
  currency: string;
  balance: number;
  updatedAt: Date;
}

/** One change of a wallet: signed minor units (credits positive), the balance after it. */
export interface LedgerEntry {
  id: string;
  tenantId: string;
  type: LedgerEntryType;
  amount: number;
  currency: string;
  balanceAfter: number;
  orderId: string | null;
  reference: string | null;
  /** How much of `amount` was the platform's fee (not negative; 0 for none). */
  feeAmount: number;
  createdAt: Date;
}

export type { LedgerEntryType };

/** Stored rows hold BigInt amounts (no 32-bit overflow); the domain reads them as exact numbers. */
export function walletFrom(row: { tenantId: string; currency: string; balance: bigint | number; updatedAt: Date }): Wallet {
  return { tenantId: row.tenantId, currency: row.currency, balance: exactNumber(row.balance), updatedAt: row.updatedAt };
}

export function ledgerEntryFrom(row: Omit<LedgerEntry, "amount" | "balanceAfter" | "feeAmount"> & { amount: bigint | number; balanceAfter: bigint | number; feeAmount: bigint | number }): LedgerEntry {
  return { ...row, amount: exactNumber(row.amount), balanceAfter: exactNumber(row.balanceAfter), feeAmount: exactNumber(row.feeAmount) };
}
