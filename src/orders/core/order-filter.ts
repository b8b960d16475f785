import type { Database } from "../../db/database";
import { containsAnyCase } from "../../db/text-match";
import type { Prisma } from "../../db/models";
import { appError } from "../../errors/app-error";
import { filteredListName } from "../../pagination/list-name";
import type { OrderStatus } from "./order";

/** Which of a tenant's orders a list shows; every field given narrows it. */
export interface OrderFilter {
  status?: OrderStatus;
  /** The airline's booking reference, exactly (case aside). */
  bookingReference?: string;
  /** Words that must each appear in the given or family name of one passenger of the order. */
  passengerName?: string;
  /** Booked at or after this instant. */
  createdFrom?: Date;
  /** Booked before this instant. */
  createdBefore?: Date;
}

const MAX_NAME_LENGTH = 100;
const MAX_NAME_WORDS = 5;
const MAX_REFERENCE_LENGTH = 32;

/**
 * The filter as given, checked: 400 `validation_failed` naming `passengerName` or
 * `bookingReference` when it is longer than anyone's (a passenger name of more than 5 words or
 * 100 characters, a reference of more than 32). Blank text means no filter on that field.
 */
export function checkOrderFilter(filter: OrderFilter): OrderFilter {
  const bookingReference = filter.bookingReference?.trim().toUpperCase() || undefined;
  const passengerName = filter.passengerName?.trim().replace(/\s+/g, " ") || undefined;
  if (bookingReference && bookingReference.length > MAX_REFERENCE_LENGTH) {
    throw appError("validation_failed", { field: "bookingReference", message: `bookingReference: at most ${MAX_REFERENCE_LENGTH} characters` });
  }
  if (passengerName && (passengerName.length > MAX_NAME_LENGTH || passengerName.split(" ").length > MAX_NAME_WORDS)) {
    throw appError("validation_failed", { field: "passengerName", message: `passengerName: at most ${MAX_NAME_WORDS} words and ${MAX_NAME_LENGTH} characters` });
  }
  return { ...filter, bookingReference, passengerName };
}

/** The filter as a Prisma `where` (the tenant's own scope is added by the caller); names match ignoring case. */
export function orderFilterWhere(provider: Database["provider"], filter: OrderFilter): Prisma.OrderWhereInput {
  const nameWords = filter.passengerName?.split(" ") ?? [];
  return {
    ...(filter.status === undefined ? {} : { status: filter.status }),
    ...(filter.bookingReference === undefined ? {} : { bookingReference: filter.bookingReference }),
    ...(filter.createdFrom || filter.createdBefore
      ? { createdAt: { ...(filter.createdFrom ? { gte: filter.createdFrom } : {}), ...(filter.createdBefore ? { lt: filter.createdBefore } : {}) } }
      : {}),
    ...(nameWords.length === 0
      ? {}
      : { passengers: { some: { AND: nameWords.map((word) => ({ OR: [{ givenName: containsAnyCase(provider, word) }, { familyName: containsAnyCase(provider, word) }] })) } } }),
  };
}

/** Names the tenant's list under this filter for its cursors. */
export function orderListName(tenantId: string, filter: OrderFilter): string {
  return filteredListName(`orders:${tenantId}`, [filter.status, filter.bookingReference, filter.passengerName, filter.createdFrom?.getTime(), filter.createdBefore?.getTime()]);
}
