import { figuresByDay, type DayRange } from "../db/daily-buckets";
import type { Database } from "../db/database";
import type { Prisma, Tenant } from "../db/models";
import { queryRows } from "../db/query-rows";
import { sqlEnum } from "../db/sql-enum";
import { dateFrom, exactNumber, sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { GuardFailed, writeBatch } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import { convertMinor } from "../money/exchange-rates";
import { amountTooLarge } from "../money/minor-units";
import type { CursorCodec } from "../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { ledgerEntryFrom, walletFrom, type LedgerEntry, type Wallet, type WalletRow, type WalletStanding } from "./wallet";
import type { HoldLimits } from "./hold-limits";
import { walletChange } from "./wallet-change";
import { walletAmount } from "./wallet-amount";
import { walletShareSql } from "./wallet-figures";
import { tenantClock } from "../tenancy/tenant-clock";
import type { ChangeOrigin } from "../audit/change-origin";
import { auditStatement, createdFields, fieldChanges, recordAudit } from "../audit/audit-log";
import { formatMinor } from "../money/format";
import { lowBalanceCheck } from "./low-balance";
import { creditedEvent } from "./credited-event";
import type { WalletEventNotices } from "./wallet-event-notices";

export interface WalletCredit {
  /** Minor units of `currency`, positive. */
  amount: number;
  currency: string;
  reference: string | null;
}

/** What a credit did: its ledger entry, and the wallet after it. */
export interface WalletCreditResult {
  entry: LedgerEntry;
  wallet: WalletStanding;
}

/**
 * What the owner sets on a wallet (PATCH /v1/tenants/:id/wallet), and the tenant its threshold
 * (PATCH /v1/wallet); each field absent stays as it is. Amounts are decimal text in the wallet's
 * currency, read against it when stored (wallet-amount.ts).
 */
export interface WalletSettings {
  creditLimit?: string;
  /** null: no low-balance alert. */
  lowBalanceThreshold?: string | null;
  /** Only the limits given change; null removes a limit. */
  holdLimits?: Partial<HoldLimits>;
}

/** A wallet's settings as its audit events show them: amounts as decimal text, limits as set. */
function auditedSettings(wallet: Wallet): Record<string, unknown> {
  const amount = (minor: number | null) => (minor === null ? null : formatMinor(minor, wallet.currency));
  return {
    credit_limit: amount(wallet.creditLimit),
    low_balance_threshold: amount(wallet.lowBalanceThreshold),
    max_unpaid_orders: wallet.holdLimits.maxUnpaidOrders,
    max_unpaid_seats_per_flight: wallet.holdLimits.maxUnpaidSeatsPerFlight,
  };
}

/** The ledger entries that make up what a tenant spent: on tickets (debits less reversals and refunds) and on services added after ticketing. */
const SPEND_TYPES = ["ticketing_debit", "ticketing_reversal", "refund_credit", "services_debit"] as const;

/**
 * Each tenant's prepaid wallet and its ledger (docs/rest-api.md#wallet). Every change of a balance is a
 * ledger entry written in the same transaction (wallet-change.ts), so a balance is always the
 * sum of its entries in its currency.
 */
export class WalletService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly notices: WalletEventNotices,
  ) {}

  /** The tenant's wallet. Every live tenant has one, created with it. */
  async get(tenantId: string): Promise<Wallet> {
    const [row] = await queryRows<Omit<WalletRow, "updatedAt"> & { updatedAt: unknown }>(
      this.db,
      Sql.sql`SELECT "currency", "balance", "creditLimit", "maxUnpaidOrders", "maxUnpaidSeatsPerFlight", "lowBalanceThreshold", "updatedAt" FROM "Wallet" WHERE "tenantId" = ${tenantId}`,
    );
    if (!row) throw appError("tenant_not_found");
    return walletFrom(tenantId, { ...row, updatedAt: dateFrom(row.updatedAt) });
  }

  /**
   * The wallet with what the tenant's unpaid orders stand for: `reserved`, what the wallet would
   * pay for them (PENDING orders: the total of each it settles, only the fee of each its supplier
   * settles; converted to the wallet's currency should it have been re-denominated since), and
   * `available`, what stays once all of them are paid (balance + credit limit − reserved).
   */
  async standing(tenantId: string): Promise<WalletStanding> {
    const [wallet, totals] = await Promise.all([
      this.get(tenantId),
      queryRows<{ currency: string; total: bigint | number }>(
        this.db,
        Sql.sql`SELECT "currency", SUM(${walletShareSql(this.db.provider)}) AS "total" FROM "Order"
          WHERE "tenantId" = ${tenantId} AND "status" = ${sqlEnum(this.db.provider, "OrderStatus", "PENDING")} GROUP BY "currency"`,
      ),
    ]);
    const reserved = totals.reduce((sum, { currency, total }) => sum + convertMinor(exactNumber(total), currency, wallet.currency), 0);
    return { ...wallet, reserved, available: wallet.balance + wallet.creditLimit - reserved };
  }

  /**
   * Changes the wallet's settings (PATCH /v1/tenants/:id/wallet by the owner, PATCH /v1/wallet by
   * the tenant): the fields given, the others as they were, with a `wallet.settings_updated` audit
   * event of what changed, in one transaction (the row locked on PostgreSQL; SQLite runs one
   * transaction at a time). A credit limit or hold limit lowered below what is used already only
   * refuses new spending and bookings; `available` falling below the threshold so sends
   * `wallet.low_balance`. 404 `tenant_not_found`, 409 `tenant_deleted`, 422 `invalid_field_value`
   * for an amount with more decimals than the wallet's currency takes.
   */
  async updateSettings(tenant: Tenant, settings: WalletSettings, by: ChangeOrigin): Promise<WalletStanding> {
    if (tenant.status === "deleted") throw appError("tenant_deleted");
    const now = tenantClock(tenant).now();
    const lock = this.db.provider === "postgresql" ? Sql.sql`FOR UPDATE` : Sql.empty;
    const alert = await this.db.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<Array<Omit<WalletRow, "updatedAt">>>(
        Sql.sql`SELECT "currency", "balance", "creditLimit", "maxUnpaidOrders", "maxUnpaidSeatsPerFlight", "lowBalanceThreshold" FROM "Wallet" WHERE "tenantId" = ${tenant.id} ${lock}`,
      );
      if (!row) throw appError("tenant_not_found");
      const before = walletFrom(tenant.id, { ...row, updatedAt: now });
      const after: Wallet = {
        ...before,
        ...(settings.creditLimit !== undefined && { creditLimit: walletAmount(settings.creditLimit, before.currency, "credit_limit") }),
        ...(settings.lowBalanceThreshold !== undefined && {
          lowBalanceThreshold: settings.lowBalanceThreshold === null ? null : walletAmount(settings.lowBalanceThreshold, before.currency, "low_balance_threshold"),
        }),
        holdLimits: { ...before.holdLimits, ...settings.holdLimits },
      };
      const changes = fieldChanges(auditedSettings(before), auditedSettings(after));
      if (Object.keys(changes).length === 0) return;
      const threshold = after.lowBalanceThreshold === null ? null : BigInt(after.lowBalanceThreshold);
      // A new threshold is crossed afresh: a wallet already below it is told at once.
      const rearm = after.lowBalanceThreshold !== before.lowBalanceThreshold ? Sql.sql`, "lowBalanceAlerted" = FALSE` : Sql.empty;
      await tx.$executeRaw(Sql.sql`UPDATE "Wallet" SET "creditLimit" = ${BigInt(after.creditLimit)}, "lowBalanceThreshold" = ${threshold} ${rearm},
        "maxUnpaidOrders" = ${after.holdLimits.maxUnpaidOrders}, "maxUnpaidSeatsPerFlight" = ${after.holdLimits.maxUnpaidSeatsPerFlight}, "updatedAt" = ${sqlTimestamp(this.db.provider, now)}
        WHERE "tenantId" = ${tenant.id}`);
      await recordAudit(tx, this.db, by, { action: "wallet.settings_updated", tenantId: tenant.id, target: { type: "wallet", id: tenant.id }, changes });
      const check = lowBalanceCheck(this.db, tenant.id, now, this.notices.firstDeliveryDelayMs);
      const counts: number[] = [];
      for (const statement of check.statements) counts.push(await tx.$executeRaw(statement));
      return counts[check.eventStatement]! > 0 ? check.notice : undefined;
    });
    if (alert) await this.notices.publish([alert]);
    return this.standing(tenant.id);
  }

  /** The tenant's ledger, newest first. */
  async transactions(tenantId: string, request: PageRequest): Promise<Page<LedgerEntry>> {
    const where = { tenantId };
    const page = await paginate({
      list: `wallet-transactions:${tenantId}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.ledgerEntry.count({ where }),
      fetch: (query) => this.db.prisma.ledgerEntry.findMany({ ...query, where: { AND: [where, query.where] } }),
    });
    return { ...page, items: page.items.map(ledgerEntryFrom) };
  }

  /**
   * The owner credits a tenant's wallet (`owner_credit`), with the event `wallet.credited` and the
   * low-balance check (which the credit may arm again) in the same transaction. 422 `currency_mismatch` unless the
   * amount is in the wallet's currency; 422 `amount_too_large` if the balance would pass 2^53 − 1
   * minor units.
   */
  async credit(tenant: Tenant, credit: WalletCredit, by: ChangeOrigin): Promise<WalletCreditResult> {
    if (tenant.status === "deleted") throw appError("tenant_deleted");
    const at = tenantClock(tenant).now();
    const change = walletChange(this.db, { tenantId: tenant.id, type: "owner_credit", ...credit, capped: true, at });
    const credited = creditedEvent(this.db, { tenantId: tenant.id, entryId: change.entryId, ...credit, at }, this.notices.firstDeliveryDelayMs);
    const check = lowBalanceCheck(this.db, tenant.id, at, this.notices.firstDeliveryDelayMs);
    const audited = {
      action: "wallet.credited" as const,
      tenantId: tenant.id,
      target: { type: "wallet_transaction", id: change.entryId },
      changes: createdFields({ amount: formatMinor(credit.amount, credit.currency), currency: credit.currency, reference: credit.reference }),
    };
    try {
      await writeBatch(this.db, [...change.statements, auditStatement(this.db, by, audited), ...credited.statements, ...check.statements]);
    } catch (error) {
      if (!(error instanceof GuardFailed)) throw error;
      const wallet = await this.get(tenant.id);
      // In its currency, the only guard a credit can fail is the ceiling.
      if (wallet.currency === credit.currency) throw amountTooLarge("amount");
      throw appError("currency_mismatch", { field: "currency", message: `currency: the wallet holds ${wallet.currency}, not ${credit.currency}` });
    }
    // A credit only raises what is available: its check can arm the alert again, never send it.
    await this.notices.publish([credited.notice]);
    const entry = await this.db.prisma.ledgerEntry.findUniqueOrThrow({ where: { id: change.entryId } });
    return { entry: ledgerEntryFrom(entry), wallet: await this.standing(tenant.id) };
  }

  /**
   * What the tenant spent on tickets, in the wallet's currency: debits less reversals and refunds
   * (entries in another currency, from before a re-denomination, are left out).
   */
  async spend(tenantId: string): Promise<{ amountMinor: number; currency: string }> {
    const { currency } = await this.get(tenantId);
    const sum = await this.db.prisma.ledgerEntry.aggregate({
      where: { tenantId, currency, type: { in: [...SPEND_TYPES] } },
      _sum: { amount: true },
    });
    return { amountMinor: -exactNumber(sum._sum.amount ?? 0), currency };
  }

  /** `spend` per UTC day of `range` (usage over time), in the wallet's currency; days with none are absent. */
  async dailySpend(tenantId: string, range: DayRange): Promise<{ amountsMinor: Map<string, number>; currency: string }> {
    const { currency } = await this.get(tenantId);
    const spendTypes = Sql.join(SPEND_TYPES.map((type) => sqlEnum(this.db.provider, "LedgerEntryType", type)));
    const sums = await figuresByDay(this.db, {
      table: "LedgerEntry",
      tenantId,
      range,
      figure: Sql.sql`-SUM("amount")`,
      where: Sql.sql`"currency" = ${currency} AND "type" IN (${spendTypes})`,
    });
    return { amountsMinor: sums, currency };
  }

  /** The wallet's movements for one order (its payments, reversals and refunds), oldest first. */
  async orderEntries(tenantId: string, orderId: string): Promise<LedgerEntry[]> {
    const rows = await this.db.prisma.ledgerEntry.findMany({ where: { tenantId, orderId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(ledgerEntryFrom);
  }

  /** A credit made earlier, as it is now (a repeated idempotent credit returns it). */
  async creditById(tenantId: string, entryId: string): Promise<WalletCreditResult> {
    const entry = await this.db.prisma.ledgerEntry.findFirst({ where: { id: entryId, tenantId } });
    if (!entry) throw appError("not_found");
    return { entry: ledgerEntryFrom(entry), wallet: await this.standing(tenantId) };
  }

  /**
   * Runs inside the transaction that changes the tenant's `default_currency` (docs/rest-api.md#tenant-configuration): a
   * live tenant's currency is locked (422 `currency_locked`) while its wallet holds money or an
   * order is pending or processing; a sandbox tenant's play money is re-denominated at the
   * static rate table, recorded as a closing entry in the old currency and an opening one in
   * the new, so each currency's entries still sum to what the wallet held in it.
   */
  async changeCurrency(tx: Prisma.TransactionClient, tenant: Tenant, currency: string): Promise<void> {
    // The wallet row is locked on PostgreSQL so no debit or credit slips in between; SQLite runs
    // one transaction at a time.
    const lock = this.db.provider === "postgresql" ? Sql.sql`FOR UPDATE` : Sql.empty;
    const [row] = await tx.$queryRaw<Array<{ currency: string; balance: bigint | number }>>(
      Sql.sql`SELECT "currency", "balance" FROM "Wallet" WHERE "tenantId" = ${tenant.id} ${lock}`,
    );
    if (!row) throw appError("tenant_not_found");
    if (row.currency === currency) return;
    const balance = Number(row.balance);
    const now = tenantClock(tenant).now();
    if (tenant.environment === "live") {
      const open = await tx.order.count({ where: { tenantId: tenant.id, status: { in: ["PENDING", "PROCESSING"] } } });
      if (balance > 0 || open > 0) throw appError("currency_locked", { field: "default_currency" });
      await tx.wallet.update({ where: { tenantId: tenant.id }, data: { currency, updatedAt: now } });
      return;
    }
    const converted = convertMinor(balance, row.currency, currency);
    await tx.wallet.update({ where: { tenantId: tenant.id }, data: { currency, balance: converted, updatedAt: now } });
    const entry = (amount: number, entryCurrency: string, balanceAfter: number) => ({
      id: newId("wtx", now.getTime()),
      tenantId: tenant.id,
      type: "redenomination" as const,
      amount,
      currency: entryCurrency,
      balanceAfter,
      reference: `${row.currency} → ${currency}`,
      createdAt: now,
    });
    await tx.ledgerEntry.createMany({ data: [entry(-balance, row.currency, 0), entry(converted, currency, converted)] });
  }
}
