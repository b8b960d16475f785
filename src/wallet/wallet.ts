import { exactNumber } from "../db/sql-values";
import type { LedgerEntryType } from "../generated/prisma-sqlite/client";
import type { HoldLimits } from "./hold-limits";

/** A tenant's prepaid balance, in minor units of `currency`, and what the owner lets it do. */
export interface Wallet {
  tenantId: string;
  currency: string;
  balance: number;
  /** How far below zero the owner lets the balance go (0: not at all), minor units of `currency`. */
  creditLimit: number;
  holdLimits: HoldLimits;
  /** `wallet.low_balance` is sent when `available` falls below it, minor units of `currency`; null: never. */
  lowBalanceThreshold: number | null;
  updatedAt: Date;
}

/**
 * The wallet as it stands with the tenant's unpaid orders (docs/rest-api.md#wallet): `reserved`
 * is what they total (PENDING orders, in the wallet's currency), `available` what stays free once
 * all of them are paid: balance + credit limit − reserved, negative when they could not all be.
 */
export interface WalletStanding extends Wallet {
  reserved: number;
  available: number;
}

/** The wallet's columns as read (BigInt amounts). */
export interface WalletRow {
  currency: string;
  balance: bigint | number;
  creditLimit: bigint | number;
  maxUnpaidOrders: number | null;
  maxUnpaidSeatsPerFlight: number | null;
  lowBalanceThreshold: bigint | number | null;
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
export function walletFrom(tenantId: string, row: WalletRow): Wallet {
  return {
    tenantId,
    currency: row.currency,
    balance: exactNumber(row.balance),
    creditLimit: exactNumber(row.creditLimit),
    holdLimits: { maxUnpaidOrders: row.maxUnpaidOrders, maxUnpaidSeatsPerFlight: row.maxUnpaidSeatsPerFlight },
    lowBalanceThreshold: row.lowBalanceThreshold === null ? null : exactNumber(row.lowBalanceThreshold),
    updatedAt: row.updatedAt,
  };
}

export function ledgerEntryFrom(row: Omit<LedgerEntry, "amount" | "balanceAfter" | "feeAmount"> & { amount: bigint | number; balanceAfter: bigint | number; feeAmount: bigint | number }): LedgerEntry {
  return { ...row, amount: exactNumber(row.amount), balanceAfter: exactNumber(row.balanceAfter), feeAmount: exactNumber(row.feeAmount) };
}

/** What the wallet can pay now: its balance and the credit the owner extends. Booking, paying and ticketing need their total within it. */
export function spendable(wallet: Pick<Wallet, "balance" | "creditLimit">): number {
  return wallet.balance + wallet.creditLimit;
}
