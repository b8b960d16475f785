import { createHash } from "node:crypto";
import type { Database } from "../db/database";
import type { Prisma } from "../db/models";
import { appError } from "../errors/app-error";
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

/**
 * The filter as a Prisma `where` (the tenant's own scope is added by the caller). Names match
 * ignoring case: PostgreSQL is asked to (`mode: insensitive`); SQLite's LIKE, which Prisma's
 * `contains` uses there, already ignores the case of ASCII letters (not of others, e.g. É/é).
 */
export function orderFilterWhere(provider: Database["provider"], filter: OrderFilter): Prisma.OrderWhereInput {
  // `mode` exists only in the PostgreSQL client's types; the models are typed with SQLite's.
  const anyCase = (provider === "postgresql" ? { mode: "insensitive" } : {}) as object;
  const nameWords = filter.passengerName?.split(" ") ?? [];
  return {
    ...(filter.status === undefined ? {} : { status: filter.status }),
    ...(filter.bookingReference === undefined ? {} : { bookingReference: filter.bookingReference }),
    ...(filter.createdFrom || filter.createdBefore
      ? { createdAt: { ...(filter.createdFrom ? { gte: filter.createdFrom } : {}), ...(filter.createdBefore ? { lt: filter.createdBefore } : {}) } }
      : {}),
    ...(nameWords.length === 0
      ? {}
      : { passengers: { some: { AND: nameWords.map((word) => ({ OR: [{ givenName: { contains: word, ...anyCase } }, { familyName: { contains: word, ...anyCase } }] })) } } }),
  };
}

/** Names a filtered list for its cursors (pagination/cursor.ts): a cursor of one filter is refused by another. */
export function orderListName(tenantId: string, filter: OrderFilter): string {
  const filters = JSON.stringify([filter.status, filter.bookingReference, filter.passengerName, filter.createdFrom?.getTime(), filter.createdBefore?.getTime()]);
  return `orders:${tenantId}:${createHash("sha256").update(filters).digest("base64url").slice(0, 16)}`;
}
