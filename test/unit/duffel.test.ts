import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { DuffelApiError, DuffelClient, DuffelTimeout, DuffelUnreachable, rateLimitResetMs } from "../../src/connectors/duffel/duffel-client";
import { catalogueError } from "../../src/connectors/duffel/duffel-errors";
import { isoDurationMinutes } from "../../src/connectors/duffel/duffel-offers";
import { convertedAmount } from "../../src/connectors/duffel/duffel-prices";
import { withTokenFingerprint } from "../../src/gateway/connections/supplier-connection.inputs";
import { TokenCipher } from "../../src/gateway/connections/token-cipher";

/** The Duffel connector's pure rules: token encryption, rate-limit resets, durations, conversions and error mapping. */

describe("supplier token encryption (AES-256-GCM)", () => {
  const cipher = TokenCipher.fromSetting(randomBytes(32).toString("base64"))!;
  const token = "duffel_test_abcdefghijklmnopqrstuvwxyz";

  it("round-trips a token, with a fresh IV each time, and never holds it in clear", () => {
    const first = cipher.encrypt(token, "ten_1:spc_1");
    const second = cipher.encrypt(token, "ten_1:spc_1");
    expect(first).not.toBe(second);
    expect(first).not.toContain("duffel_test_");
    expect(cipher.decrypt(first, "ten_1:spc_1")).toBe(token);
  });

  it("refuses a ciphertext moved to another connection, tampered with, or made under another key", () => {
    const stored = cipher.encrypt(token, "ten_1:spc_1");
    expect(() => cipher.decrypt(stored, "ten_2:spc_1")).toThrow();
    const [version, iv, tag, body] = stored.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(() => cipher.decrypt([version, iv, tag, flipped.toString("base64url")].join("."), "ten_1:spc_1")).toThrow();
    expect(() => TokenCipher.fromSetting(randomBytes(32).toString("base64"))!.decrypt(stored, "ten_1:spc_1")).toThrow();
  });

  it("is off without a key, and refuses a key that is not 32 bytes", () => {
    expect(TokenCipher.fromSetting(undefined)).toBeNull();
    expect(() => TokenCipher.fromSetting(randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });

  it("keeps the token out of what an Idempotency-Key fingerprints, but for its HMAC under a key derived from the cipher's", () => {
    const fingerprint = (text: string) => cipher.fingerprint(text);
    const covered = withTokenFingerprint({ supplier: "duffel", access_token: token }, fingerprint);
    expect(covered).toEqual({ supplier: "duffel", access_token_hmac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(covered)).not.toContain(token);
    expect(withTokenFingerprint({ supplier: "duffel", access_token: `${token}x` }, fingerprint)).not.toEqual(covered);
    const otherKey = TokenCipher.fromSetting(randomBytes(32).toString("base64"))!;
    expect(otherKey.fingerprint(token)).not.toBe(cipher.fingerprint(token));
    expect(withTokenFingerprint({ supplier: "duffel", access_token: token }, null)).toEqual({ supplier: "duffel" });
  });
});

describe("Duffel's address", () => {
  it("keeps a path prefix of DUFFEL_API_URL (a proxy's), with or without its trailing slash", async () => {
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url ?? "");
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ data: { id: "off_1" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/duffel`;
    try {
      for (const baseUrl of [base, `${base}/`]) {
        const client = new DuffelClient({ baseUrl, accessToken: "duffel_test_x", timeoutMs: 5_000 });
        expect(await client.get("/air/offers/off_1", { query: { return_available_services: true } })).toEqual({ id: "off_1" });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(paths).toEqual(["/duffel/air/offers/off_1?return_available_services=true", "/duffel/air/offers/off_1?return_available_services=true"]);
  });
});

describe("Duffel's rate-limit reset", () => {
  it("reads an HTTP date, Unix seconds, or seconds from now; one second when absent", () => {
    const now = clock.nowMs();
    const at = new Date(Math.ceil(now / 1000) * 1000 + 5000);
    expect(rateLimitResetMs(new Headers({ "ratelimit-reset": at.toUTCString() }))).toBe(at.getTime());
    expect(rateLimitResetMs(new Headers({ "ratelimit-reset": String(at.getTime() / 1000) }))).toBe(at.getTime());
    expect(rateLimitResetMs(new Headers({ "ratelimit-reset": "3" })) - now).toBeGreaterThanOrEqual(3000);
    expect(rateLimitResetMs(new Headers()) - now).toBeGreaterThanOrEqual(1000);
  });
});

describe("Duffel's durations and amounts", () => {
  it.each([
    ["PT7H55M", 475],
    ["P1DT2H", 1560],
    ["PT45M", 45],
    [null, null],
    ["7h", null],
  ])("%s is %s minutes", (duration, minutes) => {
    expect(isoDurationMinutes(duration)).toBe(minutes);
  });

  it("converts with the static table and records the rate, keeps an amount in the same currency, and refuses what it cannot hold", () => {
    expect(convertedAmount("100.00", "USD", "JPY")).toEqual({ amountMinor: 15000, currency: "JPY", conversion: { from: "USD", to: "JPY", rate: 150 } });
    expect(convertedAmount("12.34", "EUR", "EUR")).toEqual({ amountMinor: 1234, currency: "EUR", conversion: null });
    expect(() => convertedAmount("12.345", "EUR", "USD")).toThrow();
    expect(() => convertedAmount("1.00", "XAU", "USD")).toThrow(/exchange rate/);
  });
});

describe("Duffel's errors in the catalogue's words", () => {
  const api = (status: number, code: string) => new DuffelApiError(status, code, "invalid_state_error", "Duffel says no", "req_1");
  it.each([
    [api(422, "offer_no_longer_available"), "offer_no_longer_available", 422],
    [api(422, "price_changed"), "price_changed", 422],
    [api(401, "access_token_not_found"), "supplier_error", 502],
    [api(404, "not_found"), "not_found", 404],
    [api(422, "validation_required"), "invalid_field_value", 422],
    [api(500, "internal_server_error"), "supplier_error", 502],
    [api(422, "insufficient_balance"), "insufficient_balance", 402],
    [api(422, "already_cancelled"), "order_state_conflict", 409],
    [api(422, "order_not_changeable"), "change_not_allowed", 422],
    [api(422, "unsupported_action"), "unsupported_by_supplier", 422],
    [api(422, "order_creation_failed"), "offer_no_longer_available", 422],
    [api(504, "http_504"), "supplier_timeout", 504],
    [new DuffelTimeout("late"), "supplier_timeout", 504],
    [new DuffelUnreachable("refused"), "supplier_error", 502],
  ])("%s → %s", (error, code, status) => {
    const mapped = catalogueError(error);
    expect({ code: mapped.code, status: mapped.status }).toEqual({ code, status });
  });
});
