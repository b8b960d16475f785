import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { minorDigits } from "../money/format";

/**
 * The wallet's figures in SQL, read inside the transaction that changes them: what a low-balance
 * crossing is decided on, and what a wallet event's payload reports. The same rules as
 * WalletService.standing, written once for both databases.
 */

/**
 * What the wallet pays of a PENDING order, over an "Order" row: its total when the wallet settles
 * it, only Aerogate's fee (never more than the total) when the supplier settles the fare
 * (orders/core/order.ts `walletShare`, which the booking's balance check applies).
 */
export function walletShareSql(provider: Database["provider"]): Sql.Sql {
  const fee =
    provider === "postgresql" ? Sql.sql`CAST("offerSnapshot" #>> '{payload,fee,amount}' AS BIGINT)` : Sql.sql`json_extract("offerSnapshot", '$.payload.fee.amount')`;
  const least = Sql.raw(provider === "postgresql" ? "LEAST" : "MIN");
  return Sql.sql`CASE WHEN "settlement" = 'supplier' THEN ${least}("totalAmount", COALESCE(${fee}, 0)) ELSE "totalAmount" END`;
}

/** 10 to the power of the wallet currency's minor digits (USD 100, JPY 1, BHD 1000), over a "Wallet" row `w`. */
function minorScaleSql(): Sql.Sql {
  const scales = new Map<number, string[]>();
  for (const code of Intl.supportedValuesOf("currency")) {
    const digits = minorDigits(code);
    if (digits !== 2) scales.set(10 ** digits, [...(scales.get(10 ** digits) ?? []), code]);
  }
  const arms = [...scales].map(([scale, codes]) => Sql.sql`WHEN w."currency" IN (${Sql.join(codes)}) THEN ${Sql.raw(String(scale))}`);
  return Sql.sql`CASE ${Sql.join(arms, " ")} ELSE 100 END`;
}

/**
 * The tenant's wallet as one row `f`, read by a statement of the batch that changes it (so after
 * the batch's earlier statements): its columns, `reserved` (what its PENDING orders in its
 * currency would take from it), `available` (balance + credit limit − reserved) and `scale`.
 * `withThresholdOnly`: no row for a wallet without a low-balance threshold (nothing to work out).
 */
export function walletFiguresSql(db: Database, tenantId: string, options: { withThresholdOnly?: boolean } = {}): Sql.Sql {
  const withThreshold = options.withThresholdOnly ? Sql.sql`AND w."lowBalanceThreshold" IS NOT NULL` : Sql.empty;
  const reserved = Sql.sql`CAST(COALESCE((SELECT SUM(${walletShareSql(db.provider)}) FROM "Order" o
    WHERE o."tenantId" = w."tenantId" AND o."status" = ${sqlEnum(db.provider, "OrderStatus", "PENDING")} AND o."currency" = w."currency"), 0) AS BIGINT)`;
  return Sql.sql`(SELECT r.*, r."balance" + r."creditLimit" - r."reserved" AS "available" FROM (
      SELECT w."tenantId", w."currency", w."balance", w."creditLimit", w."lowBalanceThreshold", w."lowBalanceAlerted", ${reserved} AS "reserved", ${minorScaleSql()} AS "scale"
      FROM "Wallet" w WHERE w."tenantId" = ${tenantId} ${withThreshold}) r) f`;
}

/** A column of `f` in minor units as the API's decimal string ("-12.50", "500"), as formatMinor writes it. */
function decimalSql(column: string): Sql.Sql {
  const value = Sql.raw(`f."${column}"`);
  return Sql.sql`CASE WHEN f."scale" = 1 THEN CAST(${value} AS TEXT) ELSE
    (CASE WHEN ${value} < 0 THEN '-' ELSE '' END) || CAST(ABS(${value}) / f."scale" AS TEXT) || '.' || SUBSTR(CAST(ABS(${value}) % f."scale" + f."scale" AS TEXT), 2) END`;
}

/** Stands for the wallet's figures in the JSON a payload is written from. */
const FIGURES = "__wallet_figures__";

/**
 * A wallet event's webhook body as SQL over `f`: `{ id, event, created_at, data }`, `data` the
 * wallet as the event left it (tenant_id, balance, currency, credit_limit, reserved, available,
 * low_balance_threshold: the wallet's REST names) followed by `extra`.
 */
export function walletEventPayloadSql(head: { id: string; event: string; created_at: string }, tenantId: string, extra: Record<string, unknown> = {}): Sql.Sql {
  const [before, after] = JSON.stringify({ ...head, data: { tenant_id: tenantId, [FIGURES]: 0, ...extra } }).split(`"${FIGURES}":0`) as [string, string];
  return Sql.sql`CAST(${before} AS TEXT) || '"balance":"' || ${decimalSql("balance")} || '","currency":"' || f."currency"
    || '","credit_limit":"' || ${decimalSql("creditLimit")} || '","reserved":"' || ${decimalSql("reserved")} || '","available":"' || ${decimalSql("available")}
    || '","low_balance_threshold":' || (CASE WHEN f."lowBalanceThreshold" IS NULL THEN 'null' ELSE '"' || ${decimalSql("lowBalanceThreshold")} || '"' END) || CAST(${after} AS TEXT)`;
}
