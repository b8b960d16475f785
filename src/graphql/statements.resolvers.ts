import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import { parseStatementMonth } from "../statements/statement.inputs";
import { toGraphQLEnum } from "./enum-case";

/** Monthly statements of the wallet (docs/running-the-platform.md#statements), the twin of GET /v1/statements/:month. */
export const statementResolvers: Resolvers = {
  Query: {
    statement: (_parent, { month }, ctx) => ctx.services.statements.statement(tenantScope(ctx), parseStatementMonth(month)),
  },
  Statement: {
    openingBalance: (statement) => formatMinor(statement.openingBalance, statement.currency),
    closingBalance: (statement) => formatMinor(statement.closingBalance, statement.currency),
    totals: (statement) => Object.entries(statement.totals).map(([type, amount]) => ({ type: toGraphQLEnum(type as keyof typeof statement.totals), amount: formatMinor(amount, statement.currency) })),
    lines: (statement) =>
      statement.lines.map((line) => ({
        id: line.id,
        createdAt: line.createdAt,
        type: toGraphQLEnum(line.type),
        amount: formatMinor(line.amount, statement.currency),
        feeAmount: formatMinor(line.feeAmount, statement.currency),
        orderId: line.orderId,
        bookingReference: line.bookingReference,
        reference: line.reference,
        balanceAfter: formatMinor(line.balanceAfter, statement.currency),
      })),
  },
};
