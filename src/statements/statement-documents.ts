import { formatMinor } from "../money/format";
import { instantToLocalIso } from "../time/local-time";
import { PdfDocument } from "./pdf-document";
import type { Statement } from "./statement";

/** The statement's CSV columns, one row per line: the same figures as its JSON. */
const CSV_COLUMNS = ["id", "created_at", "type", "amount", "fee_amount", "currency", "order_id", "booking_reference", "reference", "balance_after"] as const;

/** The statement as CSV (RFC 4180): a header row, then one row per line, oldest first. */
export function statementCsv(statement: Statement): string {
  const { currency } = statement;
  const rows = statement.lines.map((line) => [
    line.id,
    line.createdAt.toISOString(),
    line.type,
    formatMinor(line.amount, currency),
    formatMinor(line.feeAmount, currency),
    currency,
    line.orderId ?? "",
    line.bookingReference ?? "",
    line.reference ?? "",
    formatMinor(line.balanceAfter, currency),
  ]);
  return [[...CSV_COLUMNS], ...rows].map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** A field quoted when it must be, and never read as a formula by a spreadsheet. */
function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The statement as a PDF a person would file: the tenant, the month, opening and closing balances, every line, the totals. */
export function statementPdf(statement: Statement): Promise<Buffer> {
  const { currency } = statement;
  const money = (amount: number) => `${formatMinor(amount, currency)} ${currency}`;
  const local = (date: Date) => instantToLocalIso(statement.timeZone, date.getTime()).slice(0, 16).replace("T", " ");
  const pdf = new PdfDocument(`Statement ${statement.month}, ${statement.tenantName}`, "Aerogate");
  pdf
    .heading(`Statement ${statement.month}`)
    .line(statement.tenantName)
    .line(`Account ${statement.tenantId}. Times in ${statement.timeZone}.`)
    .subheading("Balances")
    .facts([
      [`Opening balance (${local(statement.from)})`, money(statement.openingBalance)],
      [`Closing balance (${local(statement.to)})`, money(statement.closingBalance)],
    ])
    .subheading("Movements")
    .table(
      [
        { heading: "Date", width: 70 },
        { heading: "Type", width: 80 },
        { heading: "Booking", width: 55 },
        { heading: "Reference", width: 110 },
        { heading: "Amount", width: 60, align: "right" },
        { heading: "Of which fee", width: 60, align: "right" },
        { heading: "Balance", width: 60, align: "right" },
      ],
      statement.lines.map((line) => [
        local(line.createdAt),
        line.type.replaceAll("_", " "),
        line.bookingReference ?? "",
        line.reference ?? line.orderId ?? "",
        formatMinor(line.amount, currency),
        line.feeAmount === 0 ? "" : formatMinor(line.feeAmount, currency),
        formatMinor(line.balanceAfter, currency),
      ]),
    )
    .subheading("Totals")
    .facts(Object.entries(statement.totals).map(([type, amount]) => [type.replaceAll("_", " "), money(amount)]));
  return pdf.finish();
}
