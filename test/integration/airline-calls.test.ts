import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/database";
import { applyMigrations } from "../../src/db/migrate";
import { SimulatedBookings } from "../../src/connectors/simulated/simulated-bookings";
import { SeatsUnavailable, SeatTaken } from "../../src/gateway/contract/errors";
import { type SupplierBooking } from "../../src/gateway/contract/bookings";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * The simulated airline keeps the supplier contract's promises (docs/supplier-contract.md), at
 * its own edge, on its own tables: every state-changing call is keyed by our ids, so a repeat
 * answers as the first did and changes nothing more; an undo takes back exactly what its call
 * did, and is safe to repeat; a refusal leaves nothing behind. SQLite, or PostgreSQL under
 * TEST_DATABASE_URL.
 */

let database: TestDatabase;
let db: Database;
let airline: SimulatedBookings;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await openDatabase(database.url);
  await applyMigrations(db);
  airline = new SimulatedBookings(db, 0);
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

let flights = 0;
/** A flight of its own for each test, with `seatsForSale` seats. */
function flight(seatsForSale = 9): SupplierBooking["segments"][number] {
  return { flightKey: `ZZ${++flights}@2030-01-01:AAA-BBB`, cabinClass: "economy", marketingCarrier: { iataCode: "ZZ", name: "Test Air" }, seatsForSale };
}

function booking(id: string, segments: SupplierBooking["segments"], seats: SupplierBooking["seats"] = []): SupplierBooking {
  return { id, tenantId: "ten_airline", environment: "sandbox", supplier: "simulated", segments, passengers: [{ id: "p1", type: "adult", familyName: "Lovelace" }], seats, services: [] };
}

/** How calls after booking name a booking of the suite's tenant. */
function ref(id: string) {
  return { id, tenantId: "ten_airline", environment: "sandbox" as const };
}

/** Seats held on each flight, in the order given. */
async function held(...segments: Array<{ flightKey: string }>): Promise<number[]> {
  const counts = await airline.seatsHeld(segments.map((segment) => ({ flightKey: segment.flightKey, cabinClass: "economy" })), "sandbox");
  return segments.map((segment) => counts.get(`${segment.flightKey}|economy`) ?? 0);
}

async function assigned(flightKey: string): Promise<string[]> {
  return [...((await airline.seatsAssigned([flightKey], "sandbox")).get(flightKey) ?? [])].sort();
}

describe("the simulated airline's calls", () => {
  it("a booking asked twice answers the same reference and holds once", async () => {
    const outbound = flight();
    const first = await airline.book(booking("ord_hold", [outbound], [{ flightKey: outbound.flightKey, designator: "3C" }]));
    const again = await airline.book(booking("ord_hold", [outbound], [{ flightKey: outbound.flightKey, designator: "3C" }]));
    expect(again).toEqual(first);
    expect(await held(outbound)).toEqual([1]);
    expect(await assigned(outbound.flightKey)).toEqual(["3C"]);
  });

  it("a seat sale asked twice sells once; another booking is refused the seat; cancelling it (twice) puts it back on sale", async () => {
    const outbound = flight();
    await airline.book(booking("ord_sale", [outbound]));
    await airline.book(booking("ord_other", [outbound]));
    const seat = [{ flightKey: outbound.flightKey, designator: "12A" }];
    await airline.sellSeats(booking("ord_sale", [outbound]), "osa_1", seat);
    await airline.sellSeats(booking("ord_sale", [outbound]), "osa_1", seat);
    expect(await assigned(outbound.flightKey)).toEqual(["12A"]);
    await expect(airline.sellSeats(booking("ord_other", [outbound]), "osa_2", seat)).rejects.toEqual(new SeatTaken(0));
    // Another sale of the same booking is another call: the seat is its own already.
    await expect(airline.sellSeats(booking("ord_sale", [outbound]), "osa_3", seat)).rejects.toBeInstanceOf(SeatTaken);

    await airline.cancelSeatSale(ref("ord_sale"), "osa_1");
    await airline.cancelSeatSale(ref("ord_sale"), "osa_1");
    expect(await assigned(outbound.flightKey)).toEqual([]);
    await airline.sellSeats(booking("ord_other", [outbound]), "osa_2", seat);
    expect(await assigned(outbound.flightKey)).toEqual(["12A"]);
    expect(await held(outbound)).toEqual([2]);
  });

  it("a change holds the new flight once while the old one stays held; cancelled, the booking keeps its flight", async () => {
    const [old, replacement] = [flight(), flight()];
    await airline.book(booking("ord_cancelled_change", [old], [{ flightKey: old.flightKey, designator: "1A" }]));
    const exchange = { release: [old.flightKey], hold: [replacement], passengers: [{ type: "adult" as const }] };
    await airline.changeFlights(booking("ord_cancelled_change", [old]), "oce_1", exchange);
    await airline.changeFlights(booking("ord_cancelled_change", [old]), "oce_1", exchange);
    expect(await held(old, replacement)).toEqual([1, 1]);

    await airline.cancelChange(ref("ord_cancelled_change"), "oce_1");
    await airline.cancelChange(ref("ord_cancelled_change"), "oce_1");
    expect(await held(old, replacement)).toEqual([1, 0]);
    expect(await assigned(old.flightKey)).toEqual(["1A"]);
  });

  it("a change completed (twice) releases the old flight and its chosen seats, and keeps the new one", async () => {
    const [old, replacement] = [flight(), flight()];
    await airline.book(booking("ord_changed", [old], [{ flightKey: old.flightKey, designator: "1A" }]));
    await airline.changeFlights(booking("ord_changed", [old]), "oce_2", { release: [old.flightKey], hold: [replacement], passengers: [{ type: "adult" }] });
    await airline.completeChange(ref("ord_changed"), "oce_2", [old.flightKey]);
    await airline.completeChange(ref("ord_changed"), "oce_2", [old.flightKey]);
    expect(await held(old, replacement)).toEqual([0, 1]);
    expect(await assigned(old.flightKey)).toEqual([]);
  });

  it("refuses a change onto a full flight, holding nothing", async () => {
    const [old, full] = [flight(), flight(0)];
    await airline.book(booking("ord_refused", [old]));
    await expect(airline.changeFlights(booking("ord_refused", [old]), "oce_3", { release: [old.flightKey], hold: [full], passengers: [{ type: "adult" }] })).rejects.toEqual(new SeatsUnavailable(full.flightKey));
    expect(await held(old, full)).toEqual([1, 0]);
  });
});
