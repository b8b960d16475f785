import { appError } from "../errors/app-error";
import { formatMinor } from "../money/format";
import { orderPriceSplit, type OrderDetail } from "../orders/core/order";
import type { OrderService } from "../orders/core/order.service";
import type { TenantScope } from "../tenancy/tenant-scope";
import { instantToUtcIso } from "../time/local-time";
import type { LedgerEntry } from "../wallet/wallet";
import type { WalletService } from "../wallet/wallet.service";
import { PdfDocument } from "./pdf-document";

/** The states of an order that was ticketed: it has a receipt. */
const TICKETED_STATES = new Set(["TICKETED", "REFUNDED"]);

/**
 * The receipt of a ticketed order as a PDF (docs/running-the-platform.md#invoices): booking
 * reference, passengers and their tickets, itinerary, fare, taxes, services, the platform's fee,
 * the total, and every payment and refund from the wallet. 409 `order_state_conflict` before the
 * order is ticketed; 404 for another tenant's order.
 */
export class InvoiceService {
  constructor(
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
  ) {}

  async invoice(scope: TenantScope, orderId: string): Promise<{ bookingReference: string; pdf: Buffer }> {
    const order = await this.orders.detail(scope, orderId);
    if (!TICKETED_STATES.has(order.status)) {
      throw appError("order_state_conflict", { reason: `The order is ${order.status}: it has a receipt once it is ticketed.` });
    }
    const movements = await this.wallets.orderEntries(scope.tenantId, orderId);
    return { bookingReference: order.bookingReference, pdf: await invoicePdf(scope.tenant.name, order, movements) };
  }
}

function invoicePdf(tenantName: string, order: OrderDetail, movements: readonly LedgerEntry[]): Promise<Buffer> {
  const { currency } = order;
  const money = (amount: number, of = currency) => `${formatMinor(amount, of)} ${of}`;
  const when = (date: Date) => instantToUtcIso(date.getTime()).slice(0, 16).replace("T", " ");
  const split = orderPriceSplit(order);
  const servicesTotal = order.services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0);
  const tickets = new Map<string, string[]>();
  for (const document of order.documents) tickets.set(document.passengerId, [...(tickets.get(document.passengerId) ?? []), document.uniqueIdentifier]);
  const pdf = new PdfDocument(`Receipt ${order.bookingReference}`, tenantName);
  pdf
    .heading(`Receipt ${order.bookingReference}`)
    .line(tenantName)
    .line(`Order ${order.id}, booked ${when(order.createdAt)} UTC, ${order.status.toLowerCase()}.`)
    .subheading("Passengers")
    .table(
      [
        { heading: "Passenger", width: 200 },
        { heading: "Type", width: 100 },
        { heading: "Tickets and EMDs", width: 195 },
      ],
      order.passengers.map((passenger) => [`${passenger.givenName} ${passenger.familyName}`, passenger.type.replaceAll("_", " "), (tickets.get(passenger.id) ?? []).join(", ")]),
    )
    .subheading("Itinerary")
    .table(
      [
        { heading: "Flight", width: 70 },
        { heading: "From", width: 50 },
        { heading: "To", width: 50 },
        { heading: "Departs (local)", width: 105 },
        { heading: "Arrives (local)", width: 105 },
        { heading: "Cabin", width: 115 },
      ],
      order.offer.payload.slices.flatMap((slice) =>
        slice.segments.map((segment) => [
          `${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}`,
          segment.origin,
          segment.destination,
          segment.departingAt.replace("T", " ").slice(0, 16),
          segment.arrivingAt.replace("T", " ").slice(0, 16),
          segment.cabinClass.replaceAll("_", " "),
        ]),
      ),
    )
    .subheading("Price")
    .facts([
      ["Fare", money(split.baseAmount - servicesTotal)],
      ["Taxes", money(split.taxAmount)],
      ...order.services.map((service): [string, string] => [`${service.type === "seat" ? `Seat ${service.designator ?? ""}`.trim() : "Bag"} × ${service.quantity}`, money(service.unitAmount * service.quantity)]),
      ["Service fee", money(split.feeAmount)],
      ["Total", money(order.totalAmount)],
    ])
    .subheading("Payments and refunds")
    .table(
      [
        { heading: "Date (UTC)", width: 90 },
        { heading: "Movement", width: 150 },
        { heading: "Reference", width: 135 },
        { heading: "Amount", width: 120, align: "right" },
      ],
      movements.map((entry) => [when(entry.createdAt), entry.type.replaceAll("_", " "), entry.reference ?? entry.id, money(entry.amount, entry.currency)]),
    );
  return pdf.finish();
}
