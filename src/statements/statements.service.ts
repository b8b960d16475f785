import type { Database } from "../db/database";
import { appError } from "../errors/app-error";
import type { TenantScope } from "../tenancy/tenant-scope";
import { localToInstant } from "../time/local-time";
import { ledgerEntryFrom, type LedgerEntryType } from "../wallet/wallet";
import type { WalletService } from "../wallet/wallet.service";
import type { Statement } from "./statement";

/**
 * Monthly statements of a tenant's wallet. The tenant's time zone decides where a month starts
 * and ends; the statement is in the wallet's currency (entries in another, from before a sandbox
 * wallet was re-denominated, are not its lines), so its closing balance is its opening balance
 * plus its lines, exactly.
 */
export class StatementService {
  constructor(
    private readonly db: Database,
    private readonly wallets: WalletService,
  ) {}

  /** The month's statement; 422 `invalid_field_value` for a month not yet begun (on the tenant's clock). A month with no movement has no lines. */
  async statement(scope: TenantScope, month: string): Promise<Statement> {
    const timeZone = scope.tenant.timezone;
    const from = new Date(localToInstant(timeZone, `${month}-01`, 0));
    const to = new Date(localToInstant(timeZone, `${nextMonth(month)}-01`, 0));
    if (from.getTime() > scope.clock.nowMs()) {
      throw appError("invalid_field_value", { field: "month", message: `month: ${month} has not begun yet in ${timeZone}` });
    }
    const { currency } = await this.wallets.get(scope.tenantId);
    const tenantId = scope.tenantId;
    const [before, rows] = await Promise.all([
      this.db.prisma.ledgerEntry.findFirst({ where: { tenantId, currency, createdAt: { lt: from } }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { balanceAfter: true } }),
      this.db.prisma.ledgerEntry.findMany({ where: { tenantId, currency, createdAt: { gte: from, lt: to } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    ]);
    const orderIds = [...new Set(rows.flatMap((row) => (row.orderId ? [row.orderId] : [])))];
    const orders = orderIds.length === 0 ? [] : await this.db.prisma.order.findMany({ where: { tenantId, id: { in: orderIds } }, select: { id: true, bookingReference: true } });
    const references = new Map(orders.map((order) => [order.id, order.bookingReference]));
    const lines = rows.map((row) => ({ ...ledgerEntryFrom(row), bookingReference: row.orderId ? (references.get(row.orderId) ?? null) : null }));
    const openingBalance = before ? Number(before.balanceAfter) : 0;
    const totals: Partial<Record<LedgerEntryType, number>> = {};
    for (const line of lines) totals[line.type] = (totals[line.type] ?? 0) + line.amount;
    const closingBalance = lines.reduce((sum, line) => sum + line.amount, openingBalance);
    return { tenantId, tenantName: scope.tenant.name, month, timeZone, from, to, currency, openingBalance, closingBalance, totals, lines };
  }
}

function nextMonth(month: string): string {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, "0")}`;
}
