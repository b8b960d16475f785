import { describe, expect, it } from "vitest";
import { OrderHolds } from "../../src/orders/payment/hold-deadline";
import type { OrderJobQueue } from "../../src/orders/jobs/order-job-queue";
import { fareRisePercent } from "../../src/connectors/simulated/timetable/repricing";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const booked = new Date("2026-06-01T12:00:00Z");
/** The deadline rules need no queue. */
const holds = (seconds: number) => new OrderHolds({} as OrderJobQueue, seconds);

describe("payment deadlines", () => {
  it("ORDER_HOLD_SECONDS after booking when departure is far", () => {
    expect(holds(86_400).paymentDeadline(booked, new Date(booked.getTime() + 30 * DAY))).toEqual(new Date(booked.getTime() + DAY));
    expect(holds(600).paymentDeadline(booked, new Date(booked.getTime() + 30 * DAY))).toEqual(new Date(booked.getTime() + 600_000));
  });

  it("never later than 24 h before the first departure", () => {
    const departure = new Date(booked.getTime() + 30 * HOUR);
    expect(holds(86_400).paymentDeadline(booked, departure)).toEqual(new Date(departure.getTime() - DAY));
  });

  it("booked within 24 h of departure, at exactly 24 h too: 15 minutes", () => {
    const quarter = new Date(booked.getTime() + 15 * 60_000);
    expect(holds(86_400).paymentDeadline(booked, new Date(booked.getTime() + 20 * HOUR))).toEqual(quarter);
    expect(holds(86_400).paymentDeadline(booked, new Date(booked.getTime() + DAY))).toEqual(quarter);
  });
});

describe("the airline's price after the guarantee", () => {
  const departure = new Date(booked.getTime() + 100 * DAY);

  it("always rises, the same for a booking on the same day", () => {
    for (const reference of ["ABC234", "ZZZ999", "QWE765"]) {
      const rise = fareRisePercent(reference, departure, booked);
      expect(rise).toBeGreaterThanOrEqual(2);
      expect(rise).toBeLessThanOrEqual(5);
      expect(fareRisePercent(reference, departure, new Date(booked.getTime() + HOUR))).toBe(rise);
    }
  });

  it("climbs a point a week inside eight weeks of departure", () => {
    const far = fareRisePercent("ABC234", departure, booked);
    expect(fareRisePercent("ABC234", departure, new Date(departure.getTime() - 8 * 7 * DAY))).toBe(far);
    expect(fareRisePercent("ABC234", departure, new Date(departure.getTime() - 5 * 7 * DAY))).toBe(far + 3);
    expect(fareRisePercent("ABC234", departure, new Date(departure.getTime() - DAY))).toBe(far + 8);
  });
});
