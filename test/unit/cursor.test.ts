import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error";
import { CursorCodec, type Direction } from "../../src/pagination/cursor";

/** Opaque, signed, expiring cursors (docs/rest-api.md#pagination): what a client holds can only be passed back unchanged. */

const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const position = { createdAt: new Date("2026-01-10T08:30:00.123Z"), id: "ten_01abc" };

/** A codec whose clock the test moves. */
function codecAt(start = T0, secret = "test-secret") {
  const clock = { now: start };
  return { codec: new CursorCodec(secret, () => clock.now), clock };
}

function expectInvalidCursor(decode: () => unknown): void {
  let thrown: unknown;
  try {
    decode();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect(thrown).toMatchObject({ code: "INVALID_CURSOR", status: 400, details: { field: "cursor" } });
}

describe("CursorCodec", () => {
  it("round-trips a position and direction", () => {
    const { codec } = codecAt();
    for (const direction of ["next", "prev"] as const) {
      expect(codec.decode("tenants", codec.encode("tenants", position, direction))).toEqual({ position, direction });
    }
  });

  it("round-trips any position, list name and direction", () => {
    const { codec } = codecAt();
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
        fc.string(),
        fc.constantFrom<Direction>("next", "prev"),
        (list, createdAt, id, direction) => {
          expect(codec.decode(list, codec.encode(list, { createdAt, id }, direction))).toEqual({ position: { createdAt, id }, direction });
        },
      ),
    );
  });

  it("is opaque: the cursor text shows no plain id or timestamp", () => {
    const { codec } = codecAt();
    const cursor = codec.encode("tenants", position, "next");
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain(position.id);
  });

  it("refuses a cursor issued for another list", () => {
    const { codec } = codecAt();
    const cursor = codec.encode("keys:ten_a", position, "next");
    expectInvalidCursor(() => codec.decode("tenants", cursor));
    expectInvalidCursor(() => codec.decode("keys:ten_b", cursor));
  });

  it("refuses a cursor signed with another secret", () => {
    const cursor = codecAt(T0, "secret-one").codec.encode("tenants", position, "next");
    expectInvalidCursor(() => codecAt(T0, "secret-two").codec.decode("tenants", cursor));
  });

  it("accepts a cursor until 24 hours after issue and refuses it after", () => {
    const { codec, clock } = codecAt();
    const cursor = codec.encode("tenants", position, "next");
    clock.now = T0 + DAY_MS - 1;
    expect(codec.decode("tenants", cursor).position).toEqual(position);
    clock.now = T0 + DAY_MS + 1;
    expectInvalidCursor(() => codec.decode("tenants", cursor));
  });

  it("refuses any single-character change", () => {
    const { codec } = codecAt();
    const cursor = codec.encode("tenants", position, "next");
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/";
    fc.assert(
      fc.property(fc.nat({ max: cursor.length - 1 }), fc.constantFrom(...alphabet), (index, replacement) => {
        fc.pre(cursor[index] !== replacement);
        const changed = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
        expectInvalidCursor(() => codec.decode("tenants", changed));
      }),
    );
  });

  it.each(["", ".", "abc", "abc.", ".abc", "a.b.c", "%%%.%%%"])("refuses the malformed cursor %j", (cursor) => {
    expectInvalidCursor(() => codecAt().codec.decode("tenants", cursor));
  });

  it("refuses arbitrary strings", () => {
    const { codec } = codecAt();
    fc.assert(
      fc.property(fc.string(), (cursor) => {
        expectInvalidCursor(() => codec.decode("tenants", cursor));
      }),
    );
  });
});
