import Negotiator from "negotiator";
import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { statementCsv, statementPdf } from "../statements/statement-documents";
import { parseStatementMonth } from "../statements/statement.inputs";
import { ok, okSchema } from "./envelope";
import { DocumentBody } from "./rendered-responses";
import { restRoute } from "./route";
import { statementSchema } from "./statement.schemas";
import { statementView } from "./statement.views";

const JSON_TYPE = "application/json";
const STATEMENT_TYPES = [JSON_TYPE, "text/csv", "application/pdf"] as const;

/** Monthly statements of the wallet and receipts of ticketed orders (docs/running-the-platform.md#statements). */
export const statementRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/statements/:month",
    operation: "statement",
    summary: "A month of the wallet (YYYY-MM, in the tenant's time zone): opening and closing balances and every movement, as JSON, CSV or PDF by Accept",
    tag: "Wallet",
    produces: STATEMENT_TYPES,
    response: okSchema(statementSchema),
    errors: ["invalid_field_value"],
    handle: async ({ ctx, params, accept }) => {
      const month = parseStatementMonth(params.month!);
      const statement = await ctx.services.statements.statement(tenantScope(ctx), month);
      const type = new Negotiator({ headers: { accept: accept ?? JSON_TYPE } }).mediaType([...STATEMENT_TYPES]) ?? JSON_TYPE;
      const filename = `statement-${month}`;
      if (type === "text/csv") return new DocumentBody("text/csv; charset=utf-8", statementCsv(statement), `${filename}.csv`);
      if (type === "application/pdf") return new DocumentBody(type, await statementPdf(statement), `${filename}.pdf`);
      return ok(statementView(statement));
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/orders/:id/invoice",
    operation: "orderInvoice",
    summary: "The receipt of a ticketed order (PDF): passengers, itinerary, fare, taxes, services, fee, total, payments and refunds",
    tag: "Orders",
    produces: ["application/pdf"],
    response: z.string(),
    errors: ["not_found", "order_state_conflict"],
    handle: async ({ ctx, params }) => {
      const order = await ctx.services.invoices.invoice(tenantScope(ctx), params.id!);
      return new DocumentBody("application/pdf", order.pdf, `receipt-${order.bookingReference}.pdf`);
    },
  }),
];
