import { randomBytes } from "node:crypto";
import { clock } from "../../src/clock";
import type { DuffelAccount } from "../../src/connectors/duffel/duffel-accounts";
import type { DuffelOrderPassenger } from "../../src/connectors/duffel/duffel-shapes";
import type { SupplierSearch } from "../../src/gateway/contract/offers";
import { duffelAccounts } from "../../src/connectors/duffel/connected-accounts";
import { scopeOf as tenantScopeOf, type TenantScope } from "../../src/tenancy/tenant-scope";
import { call, type Endpoint, type TenantFixture } from "./client";
import type { DuffelFake } from "./duffel-fake";
import type { TestServer } from "./test-server";

/** A 32-byte SUPPLIER_SECRETS_KEY for a suite. */
export const secretsKey = () => randomBytes(32).toString("base64");

/** A fresh `duffel_test_` token the fake accepts. */
export function fakeToken(fake: DuffelFake): string {
  const token = `duffel_test_${randomBytes(24).toString("base64url")}`;
  fake.allow(token);
  return token;
}

/** Connects the tenant to Duffel (the fake) through the API, as a tenant would; returns the connection. */
export async function connectDuffel(server: Endpoint, tenant: TenantFixture, token: string): Promise<{ id: string }> {
  const created = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: token } });
  if (created.status !== 201) throw new Error(`connection failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

/** The tenant's scope as a request of its own key has it. */
export async function scopeOf(server: TestServer, tenant: TenantFixture): Promise<TenantScope> {
  const row = await server.db.prisma.tenant.findUniqueOrThrow({ where: { id: tenant.tenantId } });
  return tenantScopeOf(row, { actingAsOwner: false, mayReadWallet: true });
}

/** The tenant's Duffel account as the server wires it (connections, DUFFEL_API_URL). */
export async function accountOf(server: TestServer, tenant: TenantFixture): Promise<DuffelAccount> {
  const { config, supplierAccounts } = server.app.services;
  const account = await duffelAccounts(supplierAccounts, { baseUrl: config.DUFFEL_API_URL, timeoutMs: config.DUFFEL_TIMEOUT_MS }).forSearch(tenant.tenantId);
  if (!account) throw new Error("the tenant has no Duffel connection");
  return account;
}

/** A one-way London Heathrow to New York JFK search for one adult of a sandbox tenant (`tenantId`), on a date always in the future. */
export function londonToNewYork(server: TestServer, tenantId = "ten_unnamed"): SupplierSearch {
  const airport = (code: string) => server.app.services.airports.getByIata(code)!;
  return {
    slices: [{ origins: [airport("LHR")], destinations: [airport("JFK")], departureDate: new Date(clock.nowMs() + 30 * 86_400_000).toISOString().slice(0, 10) }],
    passengers: [{ id: "pas_1", type: "adult" }],
    cabinClass: "economy",
    maxConnections: 1,
    tenantId,
    environment: "sandbox",
  };
}

/** Who travels on a Duffel order: the offer's passenger ids with a name each. */
export function travellers(passengerIds: readonly string[]): DuffelOrderPassenger[] {
  return passengerIds.map((id, index) => ({
    id,
    given_name: "Amelia",
    family_name: `Earhart${index}`,
    born_on: "1987-07-24",
    title: "ms",
    gender: "f",
    email: "amelia@agency.test",
    phone_number: "+442080160509",
    identity_documents: [{ type: "passport", unique_identifier: `P${index}1234567`, issuing_country_code: "GB", expires_on: "2036-01-01" }],
  }));
}
