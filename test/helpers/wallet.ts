import { expect } from "vitest";
import { call, type ApiResponse } from "./client";
import { signedMinor } from "./orders";
import type { TestServer } from "./test-server";

/** POST /v1/tenants/:id/wallet/credits with the owner key (or `options.key`), as sent: no checks. */
export function creditWallet(
  server: TestServer,
  tenantId: string,
  body: Record<string, unknown>,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return call(server, "POST", `/v1/tenants/${tenantId}/wallet/credits`, { key: options.key ?? server.ownerKey, headers: options.headers, body });
}

/** Credits `amount` (a decimal string) in `currency`, asserting 201; returns the response's data. */
export async function credit(server: TestServer, tenantId: string, amount: string, currency = "USD"): Promise<any> {
  const response = await creditWallet(server, tenantId, { amount, currency });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

/** GET /v1/wallet's data, asserting 200. */
export async function getWallet(server: TestServer, key: string): Promise<{ tenant_id: string; balance: string; currency: string; reserved: string; available: string; updated_at: string }> {
  const response = await call(server, "GET", "/v1/wallet", { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

/**
 * A wallet's whole view with nothing reserved and no settings changed since it opened: no credit,
 * no threshold, and the hold limits of its environment (none in the sandbox, the defaults live).
 */
export function untouchedWallet(tenantId: string, balance: string, environment: "sandbox" | "live" = "sandbox"): Record<string, unknown> {
  return {
    tenant_id: tenantId,
    balance,
    currency: "USD",
    credit_limit: "0.00",
    low_balance_threshold: null,
    reserved: "0.00",
    available: balance,
    hold_limits: environment === "live" ? { max_unpaid_orders: 100, max_unpaid_seats_per_flight: 9 } : { max_unpaid_orders: null, max_unpaid_seats_per_flight: null },
    updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  };
}

/** The ledger's signed amounts summed per currency, in integer minor units. */
export function sumsByCurrency(entries: Array<{ amount: string; currency: string }>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const entry of entries) sums[entry.currency] = (sums[entry.currency] ?? 0) + signedMinor(entry.amount, entry.currency);
  return sums;
}
