import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { newKey, passengersOf, searchForBooking } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Names a console shows (a tenant's name, a key's label) and metadata keys are refused with 422
 * invalid_field_value naming the field when they hold a character that changes or hides what is
 * shown: bidirectional overrides, embeddings, isolates and marks, zero-width and other invisible
 * characters, controls and line breaks. So "Acme" cannot be shown reversed or stand beside a
 * look-alike, and a person confirming a deletion by typing the name types what they see.
 * Joiners that a script needs between its letters (Persian, Devanagari) and the characters of an
 * emoji sequence are part of the text and stay. Metadata values are the owner's own data: kept
 * and returned as sent.
 */

/** Each way of hiding or turning text, inside an otherwise ordinary name. */
const HIDDEN = [
  ["a right-to-left override (U+202E)", "Acme\u202Eelbat", "U+202E"],
  ["a right-to-left isolate (U+2067)", "Acme \u2067Tours", "U+2067"],
  ["a right-to-left mark (U+200F)", "Acme\u200F Tours", "U+200F"],
  ["a zero-width space (U+200B)", "Ac\u200Bme", "U+200B"],
  ["a zero-width joiner between Latin letters (U+200D)", "Ac\u200Dme", "U+200D"],
  ["a zero-width non-joiner between Latin letters (U+200C)", "Ac\u200Cme", "U+200C"],
  ["a word joiner (U+2060)", "Ac\u2060me", "U+2060"],
  ["a zero-width no-break space (U+FEFF)", "Ac\uFEFFme", "U+FEFF"],
  ["a soft hyphen (U+00AD)", "Ac\u00ADme", "U+00AD"],
  ["a tag character (U+E0041)", "Acme\u{E0041}\u{E0042}", "U+E0041"],
  ["a Hangul filler (U+3164)", "Acme\u3164Tours", "U+3164"],
  ["a line break", "Acme\nTours", "U+000A"],
] as const;

/** Names that look as they are: a script's own joiners and emoji sequences. */
const SHOWN = [
  ["Persian with a zero-width non-joiner", "آژانس می\u200Cروم"],
  ["Devanagari with a zero-width joiner", "क्\u200Dष यात्रा"],
  ["an emoji with its presentation selector", "Acme \u2708\uFE0F Travel"],
  ["an emoji joined sequence", "Family \u{1F468}\u200D\u{1F469}\u200D\u{1F467} Trips"],
] as const;

describe("hidden characters in names, labels and metadata keys", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server, { name: "Plain Travel" });
  });
  afterAll(() => server.close());

  const asOwner = (method: string, path: string, body?: unknown) => call(server, method, path, { key: server.ownerKey, body });
  const tenantCount = async () => (await asOwner("GET", "/v1/tenants?limit=1")).body.data.pagination.total as number;
  const keyCount = async () => (await asOwner("GET", `/v1/tenants/${tenant.tenantId}/keys?limit=1`)).body.data.pagination.total as number;

  /** A 422 naming the field and the character (as U+XXXX), never the text itself. */
  function expectRefusal(response: ApiResponse, field: string, character: string, text: string): void {
    expectError(response, 422, "invalid_field_value", field);
    expect(response.body.message).toContain(character);
    expect(JSON.stringify(response.body)).not.toContain(JSON.stringify(text).slice(1, -1));
  }

  function expectGraphQLRefusal(response: ApiResponse, field: string, character: string): void {
    expectGraphQLError(response, "invalid_field_value", { statusCode: 422, field });
    expect(response.body.errors[0].message).toContain(character);
  }

  describe.each(HIDDEN)("%s", (_label, text, character) => {
    it("is refused in a tenant's name: POST and PATCH /v1/tenants, createTenant", async () => {
      const before = await tenantCount();
      expectRefusal(await asOwner("POST", "/v1/tenants", { name: text, email: "ops@hidden.test" }), "name", character, text);
      const created = await graphql(server, "mutation ($input: CreateTenantInput!) { createTenant(input: $input) { id } }", { input: { name: text, email: "ops@hidden.test" } }, { key: server.ownerKey });
      expectGraphQLRefusal(created, "name", character);
      expect(await tenantCount()).toBe(before);
      expectRefusal(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { name: text }), "name", character, text);
      expect((await asOwner("GET", `/v1/tenants/${tenant.tenantId}`)).body.data.name).toBe("Plain Travel");
    });

    it("is refused in a key's label: POST /v1/tenants/:id/keys, createTenantApiKey", async () => {
      const before = await keyCount();
      expectRefusal(await asOwner("POST", `/v1/tenants/${tenant.tenantId}/keys`, { label: text }), "label", character, text);
      const issued = await graphql(server, "mutation ($id: ID!, $label: String!) { createTenantApiKey(tenantId: $id, label: $label) { apiKey } }", { id: tenant.tenantId, label: text }, { key: server.ownerKey });
      expectGraphQLRefusal(issued, "label", character);
      expect(await keyCount()).toBe(before);
    });

    it("is refused in a metadata key: the owner's tenant metadata, the tenant's configuration, updateTenantConfig", async () => {
      const metadata = { [text]: "x" };
      expectRefusal(await asOwner("POST", "/v1/tenants", { name: "Meta Travel", email: "ops@meta.test", metadata }), "metadata", character, text);
      expectRefusal(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { metadata }), "metadata", character, text);
      expectRefusal(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { metadata } }), "metadata", character, text);
      const updated = await graphql(server, "mutation ($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { id } }", { input: { metadata } }, { key: tenant.key });
      expectGraphQLRefusal(updated, "metadata", character);
      expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.metadata).toEqual({});
    });
  });

  it.each(HIDDEN)("%s is refused in an owner credit's reference: POST /v1/tenants/:id/wallet/credits, creditWallet", async (_label, text, character) => {
    const ledgerSize = async () => (await call(server, "GET", "/v1/wallet/transactions?limit=1", { key: tenant.key })).body.data.pagination.total as number;
    const before = await ledgerSize();
    const credit = { amount: "10.00", currency: "USD", reference: text };
    expectRefusal(await asOwner("POST", `/v1/tenants/${tenant.tenantId}/wallet/credits`, credit), "reference", character, text);
    const viaGraphQL = await graphql(
      server,
      "mutation ($id: ID!, $reference: String) { creditWallet(tenantId: $id, amount: \"10.00\", currency: \"USD\", reference: $reference) { transaction { id } } }",
      { id: tenant.tenantId, reference: text },
      { key: server.ownerKey },
    );
    expectGraphQLRefusal(viaGraphQL, "reference", character);
    expect(await ledgerSize()).toBe(before);
  });

  it("is refused in an order's metadata key (Variant B booking)", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const text = "ref\u202Eeno";
    const response = await call(server, "POST", "/v1/air/orders", { key: tenant.key, headers: { "idempotency-key": newKey("meta") }, body: { offerId: offer.id, passengers: passengersOf(offer), metadata: { [text]: "1" } } });
    expectRefusal(response, "metadata", "U+202E", text);
  });

  it.each(SHOWN)("accepts %s as a name and a label, returned as sent", async (_label, text) => {
    const created = await asOwner("POST", "/v1/tenants", { name: text, email: "ops@shown.test" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.name).toBe(text);
    const issued = await asOwner("POST", `/v1/tenants/${created.body.data.tenantId}/keys`, { label: text });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    expect(issued.body.data.label).toBe(text);
  });

  it("keeps metadata values as sent, whatever they hold: they are the owner's data, not names", async () => {
    const metadata = { note: "right\u202Eto left", joined: "a\u200Db" };
    const updated = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { metadata } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.metadata).toEqual(metadata);
  });
});
