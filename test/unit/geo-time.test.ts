import { describe, expect, it } from "vitest";
import { greatCircleKm } from "../../src/geo/great-circle";
import {
  formatIsoDuration,
  instantToLocalDate,
  instantToLocalIso,
  localToInstant,
  parseIsoDate,
  wallTimeOccursOnce,
  zoneOffsetMinutes,
} from "../../src/time/local-time";

const at = (iso: string) => Date.parse(iso);

describe("zoneOffsetMinutes", () => {
  it("follows each zone's daylight-saving rules", () => {
    // US clocks go forward on 2026-03-08, the UK's on 2026-03-29.
    expect(zoneOffsetMinutes("America/New_York", at("2026-03-07T12:00:00Z"))).toBe(-300);
    expect(zoneOffsetMinutes("America/New_York", at("2026-03-14T12:00:00Z"))).toBe(-240);
    expect(zoneOffsetMinutes("Europe/London", at("2026-03-14T12:00:00Z"))).toBe(0);
    expect(zoneOffsetMinutes("Europe/London", at("2026-03-30T12:00:00Z"))).toBe(60);
    expect(zoneOffsetMinutes("Asia/Kathmandu", at("2026-03-14T12:00:00Z"))).toBe(345);
    expect(zoneOffsetMinutes("Australia/Sydney", at("2026-01-10T12:00:00Z"))).toBe(660);
    expect(zoneOffsetMinutes("UTC", at("2026-01-10T12:00:00Z"))).toBe(0);
  });

  it("changes at the very quarter hour the clocks change, on the day they change", () => {
    // New York springs forward at 02:00 EST = 07:00Z.
    expect(zoneOffsetMinutes("America/New_York", at("2026-03-08T06:59:00Z"))).toBe(-300);
    expect(zoneOffsetMinutes("America/New_York", at("2026-03-08T07:00:00Z"))).toBe(-240);
    // Lord Howe Island moves by 30 minutes at 02:00 local (15:00Z) on 2026-04-04 (UTC).
    expect(zoneOffsetMinutes("Australia/Lord_Howe", at("2026-04-04T14:59:00Z"))).toBe(660);
    expect(zoneOffsetMinutes("Australia/Lord_Howe", at("2026-04-04T15:00:00Z"))).toBe(630);
  });

  it("rejects an unknown zone", () => {
    expect(() => zoneOffsetMinutes("Mars/Olympus_Mons", 0)).toThrow(RangeError);
  });
});

describe("local time conversion", () => {
  it("round-trips ordinary local times", () => {
    const instant = localToInstant("America/New_York", "2026-03-14", 8 * 60 + 35);
    expect(new Date(instant).toISOString()).toBe("2026-03-14T12:35:00.000Z");
    expect(instantToLocalIso("America/New_York", instant)).toBe("2026-03-14T08:35:00");
    expect(instantToLocalIso("Asia/Tokyo", instant)).toBe("2026-03-14T21:35:00");
    expect(instantToLocalDate("Pacific/Auckland", instant)).toBe("2026-03-15");
  });

  it("moves a local time skipped by spring-forward forward by the gap", () => {
    const instant = localToInstant("America/New_York", "2026-03-08", 2 * 60 + 30);
    expect(instantToLocalIso("America/New_York", instant)).toBe("2026-03-08T03:30:00");
  });

  it("takes the earlier of a local time repeated by fall-back", () => {
    const instant = localToInstant("America/New_York", "2026-11-01", 60 + 30);
    expect(new Date(instant).toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });

  it("knows a local time repeated by fall-back from one that happens once", () => {
    // Sydney goes back from +11:00 to +10:00 at 03:00 on 2028-04-02: 02:50 happens twice.
    expect(wallTimeOccursOnce("Australia/Sydney", at("2028-04-01T15:50:00Z"))).toBe(false);
    expect(wallTimeOccursOnce("Australia/Sydney", at("2028-04-01T16:50:00Z"))).toBe(false);
    expect(wallTimeOccursOnce("Australia/Sydney", at("2028-04-01T17:50:00Z"))).toBe(true);
    expect(wallTimeOccursOnce("America/New_York", at("2026-11-01T05:30:00Z"))).toBe(false);
    expect(wallTimeOccursOnce("America/New_York", at("2026-03-08T07:30:00Z"))).toBe(true);
    expect(wallTimeOccursOnce("Asia/Kolkata", at("2026-11-01T05:30:00Z"))).toBe(true);
  });

  it("accepts minutes past midnight beyond one day", () => {
    const instant = localToInstant("Europe/London", "2026-06-01", 25 * 60);
    expect(instantToLocalIso("Europe/London", instant)).toBe("2026-06-02T01:00:00");
  });
});

describe("parseIsoDate", () => {
  it("validates calendar dates", () => {
    expect(parseIsoDate("2028-02-29")).toBe(Date.UTC(2028, 1, 29));
    for (const bad of ["2026-02-29", "2026-13-01", "2026-1-01", "yesterday"]) {
      expect(() => parseIsoDate(bad)).toThrow(RangeError);
    }
  });

  it("reads years 0–99 as themselves, not as 1900–1999", () => {
    expect(new Date(parseIsoDate("0099-01-15")).toISOString()).toBe("0099-01-15T00:00:00.000Z");
  });
});

describe("formatIsoDuration", () => {
  it("writes hours and minutes, leaving out a zero part", () => {
    expect(formatIsoDuration(445)).toBe("PT7H25M");
    expect(formatIsoDuration(45)).toBe("PT45M");
    expect(formatIsoDuration(120)).toBe("PT2H");
    expect(formatIsoDuration(0)).toBe("PT0M");
    expect(formatIsoDuration(26 * 60 + 5)).toBe("PT26H5M");
  });

  it("rejects fractions and negative durations", () => {
    expect(() => formatIsoDuration(1.5)).toThrow(RangeError);
    expect(() => formatIsoDuration(-5)).toThrow(RangeError);
  });
});

describe("greatCircleKm", () => {
  it("measures known distances", () => {
    const lhr = { latitude: 51.4706, longitude: -0.461941 };
    const jfk = { latitude: 40.639801, longitude: -73.7789 };
    const syd = { latitude: -33.9461, longitude: 151.177 };
    expect(greatCircleKm(lhr, jfk)).toBeCloseTo(5540, -1);
    expect(greatCircleKm(jfk, lhr)).toBe(greatCircleKm(lhr, jfk));
    expect(greatCircleKm(lhr, syd)).toBeCloseTo(17_020, -2);
    expect(greatCircleKm(lhr, lhr)).toBe(0);
  });
});
