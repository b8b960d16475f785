import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { Statement } from "../statements/statement";
import type { statementSchema } from "./statement.schemas";

export function statementView(statement: Statement): z.output<typeof statementSchema> {
  const { currency } = statement;
  const money = (amount: number) => formatMinor(amount, currency);
  return {
    month: statement.month,
    time_zone: statement.timeZone,
    from: statement.from.toISOString(),
    to: statement.to.toISOString(),
    currency,
    opening_balance: money(statement.openingBalance),
    closing_balance: money(statement.closingBalance),
    totals: Object.fromEntries(Object.entries(statement.totals).map(([type, amount]) => [type, money(amount)])),
    lines: statement.lines.map((line) => ({
      id: line.id,
      created_at: line.createdAt.toISOString(),
      type: line.type,
      amount: money(line.amount),
      fee_amount: money(line.feeAmount),
      order_id: line.orderId,
      booking_reference: line.bookingReference,
      reference: line.reference,
      balance_after: money(line.balanceAfter),
    })),
  };
}
