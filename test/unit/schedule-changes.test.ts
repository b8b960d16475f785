import { describe, expect, it } from "vitest";
import { airportIndex } from "../../src/locations/airport-index";
import { SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";

/**
 * The simulated airline's retiming of a booked flight (the sandbox's `retime`, docs/rest-api.md#airline-initiated-changes): 2 h
 * 05 min later, or earlier when later breaks a connection, on by whole hours while a local time is
 * ambiguous; none when neither fits. ZA's hubs include LHR and JFK (international connections 90 min).
 */

const index = airportIndex();
const timetable = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });

function flight(flightKey: string, origin: string, destination: string, departingAtUtc: string, arrivingAtUtc: string) {
  return { flightKey, origin, destination, marketingCarrier: { iataCode: "ZA" }, departingAtUtc, arrivingAtUtc };
}

const LONDON_NEW_YORK = flight("ZA1@2027-03-10:LHR-JFK", "LHR", "JFK", "2027-03-10T10:00:00Z", "2027-03-10T18:00:00Z");
const NEW_YORK_CHICAGO = flight("ZA3@2027-03-10:JFK-ORD", "JFK", "ORD", "2027-03-10T19:45:00Z", "2027-03-10T22:15:00Z");
const BEFORE = new Date("2027-03-01T00:00:00Z");

describe("retimeFlight", () => {
  it("moves a nonstop flight 2 h 05 min later, local times in each airport's zone, the block time kept", () => {
    expect(timetable.retimeFlight(LONDON_NEW_YORK.flightKey, [[{ segments: [LONDON_NEW_YORK] }]], BEFORE)).toEqual({
      departingAtUtc: "2027-03-10T12:05:00Z",
      arrivingAtUtc: "2027-03-10T20:05:00Z",
      departingAtLocal: "2027-03-10T12:05:00",
      arrivingAtLocal: "2027-03-10T15:05:00",
    });
  });

  it("moves it earlier when later would miss the connection at the hub, or the next slice", () => {
    const earlier = { departingAtUtc: "2027-03-10T07:55:00Z", arrivingAtUtc: "2027-03-10T15:55:00Z", departingAtLocal: "2027-03-10T07:55:00", arrivingAtLocal: "2027-03-10T10:55:00" };
    expect(timetable.retimeFlight(LONDON_NEW_YORK.flightKey, [[{ segments: [LONDON_NEW_YORK, NEW_YORK_CHICAGO] }]], BEFORE)).toEqual(earlier);
    const returning = flight("ZA2@2027-03-10:JFK-LHR", "JFK", "LHR", "2027-03-10T19:00:00Z", "2027-03-11T02:00:00Z");
    expect(timetable.retimeFlight(LONDON_NEW_YORK.flightKey, [[{ segments: [LONDON_NEW_YORK] }, { segments: [returning] }]], BEFORE)).toEqual(earlier);
  });

  it("checks every booking on the flight, and has nothing when neither way fits", () => {
    const connecting = [{ segments: [LONDON_NEW_YORK, NEW_YORK_CHICAGO] }];
    expect(timetable.retimeFlight(LONDON_NEW_YORK.flightKey, [[{ segments: [LONDON_NEW_YORK] }], connecting], BEFORE)?.departingAtUtc).toBe("2027-03-10T07:55:00Z");
    expect(timetable.retimeFlight(LONDON_NEW_YORK.flightKey, [connecting], new Date("2027-03-10T08:00:00Z"))).toBeNull();
    expect(timetable.retimeFlight("ZA9@2027-03-10:LHR-JFK", [connecting], BEFORE)).toBeNull();
  });

  it("moves on by whole hours while a local time is one the clocks repeat", () => {
    // New York falls back on 2026-11-01: 01:00–02:00 happens twice (05:00Z–07:00Z).
    const late = flight("ZA3@2026-10-31:JFK-ORD", "JFK", "ORD", "2026-11-01T03:00:00Z", "2026-11-01T05:30:00Z");
    expect(timetable.retimeFlight(late.flightKey, [[{ segments: [late] }]], new Date("2026-10-01T00:00:00Z"))).toEqual({
      departingAtUtc: "2026-11-01T07:05:00Z",
      arrivingAtUtc: "2026-11-01T09:35:00Z",
      departingAtLocal: "2026-11-01T02:05:00",
      arrivingAtLocal: "2026-11-01T03:35:00",
    });
  });
});
