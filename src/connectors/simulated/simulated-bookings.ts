import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnum } from "../../db/sql-enum";
import { sqlTimestamp } from "../../db/sql-values";
import { GuardFailed, guarded, writeBatch, type BatchStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { passengersNeedingSeats, type CabinClass, type Environment } from "../../gateway/contract/air";
import type { BookedSegment, BookingAnswer, BookingRef, FlightChange, IssuedEmd, ReissuedTicket, SeatChoice, ServiceSale, SupplierBooking, SupplierOrder, TicketingAnswer } from "../../gateway/contract/bookings";
import { SeatsUnavailable, SeatTaken } from "../../gateway/contract/errors";
import type { FlightCabin } from "../../gateway/contract/offers";
import { clock } from "../../clock";

/** The key of a flight-cabin in `seatsHeld`'s answer. */
export function flightCabinKey(flight: FlightCabin): string {
  return `${flight.flightKey}|${flight.cabinClass}`;
}

/** Family names that make a sandbox booking fail at the airline (docs/simulated-airline.md#sandbox-triggers). */
const SANDBOX_TRIGGERS: Readonly<Record<string, "airline_rejected" | "airline_timeout">> = {
  rejected: "airline_rejected",
  timeout: "airline_timeout",
};

/** The family name that makes the sandbox airline slow to ticket and to refund (`slowAnswerMs`). */
const SLOW_TRIGGER = "slow";

const REFERENCE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** 6 characters without look-alikes (no I, O, 0, 1), as airlines write record locators. */
function bookingReference(bookingId: string): string {
  const digest = createHash("sha256").update(`pnr:${bookingId}`).digest();
  let reference = "";
  for (let i = 0; i < 6; i++) reference += REFERENCE_ALPHABET[digest[i]! % REFERENCE_ALPHABET.length];
  return reference;
}

/**
 * A 13-digit document number (an e-ticket's or an EMD's): the carrier's 3-digit accounting code,
 * then 10 digits fixed by what the document is for (`document`).
 */
function documentNumber(carrierCode: string, document: string): string {
  const accounting = 100 + (createHash("sha256").update(`carrier:${carrierCode}`).digest().readUInt16BE(0) % 900);
  const serial = createHash("sha256").update(document).digest().readBigUInt64BE(0) % 10_000_000_000n;
  return `${accounting}${serial.toString().padStart(10, "0")}`;
}

/** The carrier that issues the booking's documents: its first flight's. */
function issuingCarrier(booking: SupplierBooking): string {
  return booking.segments[0]?.marketingCarrier.iataCode ?? "ZZ";
}

/** The guard under which the seat at `index` of a hold or sale fails when it is taken. */
function seatGuard(index: number): string {
  return `${SEAT_GUARD}${index}`;
}

/** The index of the seat a failed guard names (see `seatGuard`), or null for any other guard. */
function seatOfGuard(guard: string): number | null {
  return guard.startsWith(SEAT_GUARD) ? Number(guard.slice(SEAT_GUARD.length)) : null;
}

const SEAT_GUARD = "seat#";

/** A failed batch as the airline answers it: a seat taken, or a flight short of seats. */
function refusal(error: unknown): unknown {
  if (!(error instanceof GuardFailed)) return error;
  const seat = seatOfGuard(error.guard);
  return seat === null ? new SeatsUnavailable(error.guard) : new SeatTaken(seat);
}

/**
 * The simulated airline's reservations: seat holds per flight and cabin, stored in the shared
 * database so that every server process sees the same inventory, and its answers to ticketing.
 *
 * Sandbox and live bookings draw on separate inventories of every flight, so that test
 * bookings (which may stay pending) never take a seat a live tenant could sell: seats left on
 * a flight for an environment are the seats it was offered with minus every hold of that
 * environment on it. A hold is written only if it still fits, inside one transaction per
 * booking. On PostgreSQL each flight's inventory is locked (a transaction-level advisory lock,
 * taken in flight order so two bookings never deadlock) while its holds are summed; SQLite runs
 * one transaction at a time.
 *
 * Answers are pure functions of the booking: the same booking always gets the same reference,
 * the same verdict and the same ticket numbers, so a ticketing job run twice (a crash between
 * the airline's answer and our commit) sees one outcome. Every write is tagged with the call
 * that made it (`operationId`: the booking's id for its hold, a sale's or an exchange's id), so a
 * repeated call finds its work done, and a call undone takes back exactly what it wrote.
 *
 * These tables are the airline's own: only its calls write them, each in a transaction of its
 * own, never in one of Aerogate's.
 */
export class SimulatedBookings {
  constructor(
    private readonly db: Database,
    /** How long ticketing and refunds of a sandbox booking with a passenger named `Slow` take. */
    private readonly slowAnswerMs: number,
  ) {}

  /** Holds the booking's seats and chosen seats, all or nothing, until it is paid (the airline keeps no deadline of its own); a repeat finds them held and answers the same. */
  async book(booking: SupplierBooking): Promise<BookingAnswer> {
    await this.write("SeatHold", booking.id, booking.id, [...this.seatHolds(booking, booking.segments, passengersNeedingSeats(booking.passengers), booking.id), ...this.seatAssignments(booking, booking.seats, booking.id)]);
    return { outcome: "held", bookingReference: bookingReference(booking.id), paymentRequiredBy: null };
  }

  /** The booking as the airline holds it: its seats held (ticketed or not, the airline keeps the same rows), or null when it holds none. */
  async readOrder(booking: BookingRef): Promise<SupplierOrder | null> {
    const rows = await queryRows<{ found: number }>(this.db, Sql.sql`SELECT 1 AS "found" FROM "SeatHold" WHERE "holdId" = ${booking.id} LIMIT 1`);
    return rows.length === 0 ? null : { bookingReference: bookingReference(booking.id), status: "held" };
  }

  /** The seats chosen after booking, as SeatAssignment rows of the sale, all or none. */
  async sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    if (seats.length > 0) await this.write("SeatAssignment", booking.id, saleId, this.seatAssignments(booking, seats, saleId));
  }

  async cancelSeatSale(booking: BookingRef, saleId: string): Promise<void> {
    await writeBatch(this.db, [Sql.sql`DELETE FROM "SeatAssignment" WHERE "holdId" = ${booking.id} AND "operationId" = ${saleId}`]);
  }

  /** Seats held on a change's new flights (`seatHolds`) under the change's id; the flights left stay held. */
  async changeFlights(booking: BookingRef, changeId: string, change: FlightChange): Promise<void> {
    if (change.hold.length > 0) await this.write("SeatHold", booking.id, changeId, this.seatHolds(booking, change.hold, passengersNeedingSeats(change.passengers), changeId));
  }

  /** The booking's holds and chosen seats on the flights the change left, deleted. */
  async completeChange(booking: BookingRef, changeId: string, release: readonly string[]): Promise<void> {
    if (release.length === 0) return;
    const flights = Sql.join([...release]);
    // Never a hold the change itself placed (a change takes no flight it leaves; this keeps it so).
    await writeBatch(this.db, [
      Sql.sql`DELETE FROM "SeatHold" WHERE "holdId" = ${booking.id} AND "flightKey" IN (${flights}) AND ("operationId" IS NULL OR "operationId" <> ${changeId})`,
      Sql.sql`DELETE FROM "SeatAssignment" WHERE "holdId" = ${booking.id} AND "flightKey" IN (${flights})`,
    ]);
  }

  async cancelChange(booking: BookingRef, changeId: string): Promise<void> {
    await writeBatch(this.db, [Sql.sql`DELETE FROM "SeatHold" WHERE "holdId" = ${booking.id} AND "operationId" = ${changeId}`]);
  }

  /**
   * Writes the call `operationId`'s rows, all or nothing. A guard that fails is a refusal
   * (SeatsUnavailable, SeatTaken), unless the call wrote its rows of `table` already: a repeat,
   * whose first row's guard fails on the row it wrote, is answered as the first call was. (The
   * check costs a read on a refusal only, never on the way a booking usually goes.)
   */
  private async write(table: "SeatHold" | "SeatAssignment", bookingId: string, operationId: string, batch: BatchStatement[]): Promise<void> {
    try {
      await writeBatch(this.db, batch);
    } catch (error) {
      if (error instanceof GuardFailed && (await this.written(table, bookingId, operationId))) return;
      throw refusal(error);
    }
  }

  private async written(table: "SeatHold" | "SeatAssignment", bookingId: string, operationId: string): Promise<boolean> {
    const rows = await queryRows<{ found: number }>(
      this.db,
      Sql.sql`SELECT 1 AS "found" FROM ${Sql.raw(`"${table}"`)} WHERE "holdId" = ${bookingId} AND "operationId" = ${operationId} LIMIT 1`,
    );
    return rows.length > 0;
  }

  /**
   * A hold of `seats` per flight for the booking, made by the call `operationId`, each written
   * only if it still fits the flight (guarded by its flight key), in flight order: on PostgreSQL
   * each flight's inventory is locked while its holds are summed, always in that order, so two
   * bookings never deadlock. A flight the booking holds already fails its guard too.
   */
  private seatHolds(booking: BookingRef, segments: readonly BookedSegment[], seats: number, operationId: string): BatchStatement[] {
    const createdAt = sqlTimestamp(this.db.provider, clock.now());
    const environment = sqlEnum(this.db.provider, "Environment", booking.environment);
    return [...segments]
      .sort((a, b) => (a.flightKey < b.flightKey ? -1 : a.flightKey > b.flightKey ? 1 : 0))
      .flatMap((segment) => {
        const hold = guarded(
          Sql.sql`INSERT INTO "SeatHold" ("holdId", "flightKey", "cabinClass", "tenantId", "environment", "seats", "operationId", "createdAt")
            SELECT ${booking.id}, ${segment.flightKey}, ${segment.cabinClass}, ${booking.tenantId}, ${environment}, ${seats}, ${operationId}, ${createdAt}
            WHERE (SELECT COALESCE(SUM("seats"), 0) FROM "SeatHold"
                WHERE "flightKey" = ${segment.flightKey} AND "cabinClass" = ${segment.cabinClass} AND "environment" = ${environment})
              + ${seats} <= ${segment.seatsForSale}
            ON CONFLICT DO NOTHING`,
          segment.flightKey,
        );
        if (this.db.provider !== "postgresql") return [hold];
        return [Sql.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${segment.flightKey}|${segment.cabinClass}|${booking.environment}`}, 0))`, hold];
      });
  }

  /**
   * The seats as SeatAssignment rows of the booking, sold by the call `operationId`, each guarded
   * (`seatGuard`). A seat's key (flight, environment, designator) admits one row: of two bookings
   * racing for it, the database lets one insert it; the other's changes nothing and its
   * transaction rolls back.
   */
  private seatAssignments(booking: BookingRef, seats: readonly SeatChoice[], operationId: string): BatchStatement[] {
    const createdAt = sqlTimestamp(this.db.provider, clock.now());
    const environment = sqlEnum(this.db.provider, "Environment", booking.environment);
    return seats.map((seat, index) =>
      guarded(
        Sql.sql`INSERT INTO "SeatAssignment" ("flightKey", "environment", "designator", "holdId", "tenantId", "operationId", "createdAt")
          VALUES (${seat.flightKey}, ${environment}, ${seat.designator}, ${booking.id}, ${booking.tenantId}, ${operationId}, ${createdAt})
          ON CONFLICT DO NOTHING`,
        seatGuard(index),
      ),
    );
  }

  /** One read for a whole search: the holds of its flights summed per flight and cabin. */
  async seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: Environment): Promise<Map<string, number>> {
    const held = new Map<string, number>();
    const flightKeys = [...new Set(flights.map((flight) => flight.flightKey))];
    if (flightKeys.length === 0) return held;
    const rows = await queryRows<{ flightKey: string; cabinClass: CabinClass; seats: number }>(
      this.db,
      Sql.sql`SELECT "flightKey", "cabinClass", SUM("seats") AS "seats" FROM "SeatHold"
        WHERE "environment" = ${sqlEnum(this.db.provider, "Environment", environment)} AND "flightKey" IN (${Sql.join(flightKeys)})
        GROUP BY "flightKey", "cabinClass"`,
    );
    for (const row of rows) held.set(flightCabinKey(row), Number(row.seats));
    return held;
  }

  /** One read for a map: the seats bookings of the environment hold on these flights, by flight key. */
  async seatsAssigned(flightKeys: readonly string[], environment: Environment): Promise<Map<string, Set<string>>> {
    const assigned = new Map<string, Set<string>>();
    if (flightKeys.length === 0) return assigned;
    const rows = await queryRows<{ flightKey: string; designator: string }>(
      this.db,
      Sql.sql`SELECT "flightKey", "designator" FROM "SeatAssignment"
        WHERE "environment" = ${sqlEnum(this.db.provider, "Environment", environment)} AND "flightKey" IN (${Sql.join([...new Set(flightKeys)])})`,
    );
    for (const row of rows) {
      let seats = assigned.get(row.flightKey);
      if (!seats) assigned.set(row.flightKey, (seats = new Set()));
      seats.add(row.designator);
    }
    return assigned;
  }

  /** Every release of a booking (cancel, failure, refund, reconciler) ends here: its seat counts and its chosen seats go back together. */
  async cancelBookings(bookings: readonly Pick<BookingRef, "id">[]): Promise<void> {
    if (bookings.length === 0) return;
    const ids = Sql.join(bookings.map((booking) => booking.id));
    await writeBatch(this.db, [Sql.sql`DELETE FROM "SeatHold" WHERE "holdId" IN (${ids})`, Sql.sql`DELETE FROM "SeatAssignment" WHERE "holdId" IN (${ids})`]);
  }

  /**
   * Tickets every passenger, or, for a sandbox booking with a passenger named `Rejected` or
   * `Timeout`, fails with `airline_rejected` or `airline_timeout` and gives the seats back. A
   * sandbox passenger named `Slow` makes the answer take `slowAnswerMs`.
   */
  async issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    await this.#answerDelay(booking);
    if (booking.environment === "sandbox") {
      for (const passenger of booking.passengers) {
        const reason = SANDBOX_TRIGGERS[passenger.familyName.trim().toLowerCase()];
        if (reason) {
          await this.cancelBookings([booking]);
          return { outcome: "rejected", reason };
        }
      }
    }
    const carrier = issuingCarrier(booking);
    return {
      outcome: "ticketed",
      tickets: booking.passengers.map((passenger) => ({ passengerId: passenger.id, number: documentNumber(carrier, `ticket:${booking.id}:${passenger.id}`) })),
    };
  }

  /** New e-ticket numbers after a change, fixed by the booking, the reissue and the passenger (after `slowAnswerMs` for a sandbox `Slow` passenger). */
  async reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    await this.#answerDelay(booking);
    const carrier = issuingCarrier(booking);
    return booking.passengers.map((passenger) => ({ passengerId: passenger.id, number: documentNumber(carrier, `reissue:${booking.id}:${reissue}:${passenger.id}`) }));
  }

  /** An EMD per service, numbered by the booking and our reference for the service (after `slowAnswerMs` for a sandbox `Slow` passenger). */
  async issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    await this.#answerDelay(booking);
    const carrier = issuingCarrier(booking);
    return services.map((service) => ({ reference: service.reference, number: documentNumber(carrier, `emd:${booking.id}:${service.reference}`) }));
  }

  /** Refunds the booking: its seats go back on sale (after `slowAnswerMs` for a sandbox `Slow` passenger). */
  async refundTickets(booking: SupplierBooking): Promise<void> {
    await this.#answerDelay(booking);
    await this.cancelBookings([booking]);
  }

  /** A sandbox booking with a passenger named `Slow` is answered late: how tests make an airline call outlast a job's lease. */
  async #answerDelay(booking: SupplierBooking): Promise<void> {
    const slow = booking.environment === "sandbox" && booking.passengers.some((passenger) => passenger.familyName.trim().toLowerCase() === SLOW_TRIGGER);
    if (slow) await sleep(this.slowAnswerMs);
  }
}
