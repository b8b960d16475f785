import { serverAudits } from "graphql-http";
import { createClient, type Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type TenantFixture, call, startServerWithTenant } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import type { TestServer } from "../helpers/test-server";

/** GraphQL over HTTP (the graphql-http audit suite) and graphql-ws; the playground is in playground.test.ts. */
describe("GraphQL protocols", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  it("introspection tells what an input takes: dates, codes and amounts are scalars with their shape described", async () => {
    const response = await call(server, "POST", "/graphql", {
      key: tenant.key,
      body: {
        query: `{ __schema { types { name kind description specifiedByURL inputFields { name type { name ofType { name } } } } } __type(name: "Query") { fields { name args { name type { name ofType { name } } } } } }`,
      },
    });
    expect(response.status).toBe(200);
    const types = new Map<string, any>(response.body.data.__schema.types.map((type: any) => [type.name, type]));
    for (const scalar of ["LocalDate", "IataCode", "CurrencyCode", "CountryCode", "DecimalAmount", "YearMonth"]) {
      expect(types.get(scalar)?.kind, scalar).toBe("SCALAR");
      expect(types.get(scalar)?.description, scalar).toBeTruthy();
    }
    expect(types.get("CurrencyCode").specifiedByURL).toContain("iso-4217");
    const typeOf = (input: string, field: string) => {
      const type = types.get(input).inputFields.find((candidate: any) => candidate.name === field).type;
      return type.name ?? type.ofType.name;
    };
    expect([typeOf("SearchSliceInput", "origin"), typeOf("SearchSliceInput", "departureDate"), typeOf("OrderPassengerInput", "bornOn"), typeOf("IdentityDocumentInput", "issuingCountryCode")]).toEqual(["IataCode", "LocalDate", "LocalDate", "CountryCode"]);
    expect([typeOf("PaymentInput", "currency"), typeOf("PaymentInput", "amount"), typeOf("UpdateTenantConfigInput", "defaultCurrency")]).toEqual(["CurrencyCode", "DecimalAmount", "CurrencyCode"]);
    const fareCalendar = response.body.data.__type.fields.find((field: any) => field.name === "fareCalendar");
    expect(fareCalendar.args.slice(0, 4).map((arg: any) => arg.type.ofType.name)).toEqual(["IataCode", "IataCode", "LocalDate", "LocalDate"]);
  });

  describe("GraphQL over HTTP: every MUST audit of graphql-http passes", () => {
    const audits = serverAudits({
      url: () => `${server.url}/graphql`,
      fetchFn: (input: Parameters<typeof fetch>[0], init: RequestInit = {}) => {
        const headers = new Headers(init.headers);
        headers.set("authorization", `Bearer ${server.ownerKey}`);
        return fetch(input, { ...init, headers });
      },
    });
    const mustAudits = audits.filter((audit) => audit.name.startsWith("MUST"));

    it("the suite has MUST audits to run", () => {
      expect(mustAudits.length).toBeGreaterThan(10);
    });

    for (const audit of mustAudits) {
      it(`${audit.id}: ${audit.name}`, async () => {
        const result = await audit.fn();
        if (result.status !== "ok") {
          const body = await result.response.text().catch(() => "(unreadable)");
          expect.fail(`${result.status}: ${result.reason}\nresponse ${result.response.status}: ${body.slice(0, 500)}`);
        }
        expect(result.status).toBe("ok");
      });
    }
  });

  describe("graphql-ws", () => {
    const clients: Client[] = [];
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.dispose()));
    });

    function wsClient(connectionParams: Record<string, unknown> | undefined): Client {
      const client = createClient({ url: server.wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
      clients.push(client);
      return client;
    }

    /** Runs one operation; resolves with its single result or rejects with what closed the socket. */
    function execute(client: Client, query: string): Promise<{ data?: any; errors?: any[] }> {
      return new Promise((resolve, reject) => {
        let result: { data?: any; errors?: any[] } | undefined;
        client.subscribe(
          { query },
          {
            next: (value) => {
              result = value as typeof result;
            },
            error: reject,
            complete: () => (result ? resolve(result) : reject(new Error("completed without a result"))),
          },
        );
      });
    }

    /** The close code when the server refuses the connection. */
    async function closeCode(connectionParams: Record<string, unknown> | undefined): Promise<number> {
      const failure = await execute(wsClient(connectionParams), "{ viewer { kind } }").then(
        (result) => {
          throw new Error(`connection was accepted: ${JSON.stringify(result)}`);
        },
        (error: unknown) => error,
      );
      expect(failure).toHaveProperty("code");
      return (failure as { code: number }).code;
    }

    it("connectionParams { authorization: Bearer <key> } runs { viewer { kind } } as TENANT", async () => {
      const result = await execute(wsClient({ authorization: `Bearer ${tenant.key}` }), "{ viewer { kind keyId tenant { id } } }");
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ viewer: { kind: "TENANT", keyId: tenant.keyId, tenant: { id: tenant.tenantId } } });
    });

    it('connectionParams { "x-api-key": key } works too', async () => {
      const result = await execute(wsClient({ "x-api-key": tenant.key }), "{ viewer { kind } }");
      expect(result).toEqual({ data: { viewer: { kind: "TENANT" } } });
    });

    it("the owner key connects as OWNER", async () => {
      const result = await execute(wsClient({ authorization: `Bearer ${server.ownerKey}` }), "{ viewer { kind } }");
      expect(result).toEqual({ data: { viewer: { kind: "OWNER" } } });
    });

    it("no key, an empty payload or an invalid key closes the socket with 4403", async () => {
      expect(await closeCode(undefined)).toBe(4403);
      expect(await closeCode({})).toBe(4403);
      expect(await closeCode({ authorization: "Bearer sk_test_00000000000000000000000000000000" })).toBe(4403);
      expect(await closeCode({ "x-api-key": "not-a-key" })).toBe(4403);
      expect(await closeCode({ authorization: 42 })).toBe(4403);
    });

    /** A raw graphql-ws socket, open; its close code and whether the server acknowledged it are recorded. */
    async function rawSocket(): Promise<{ socket: WebSocket; acked: () => boolean; closed: Promise<number> }> {
      const socket = new WebSocket(server.wsUrl, "graphql-transport-ws");
      let acked = false;
      socket.on("message", (data) => {
        if (JSON.parse(String(data)).type === "connection_ack") acked = true;
      });
      const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
      return { socket, acked: () => acked, closed };
    }

    it("a message over 1 MB is closed with 1009 before it is read, a connection_init with a valid key included", async () => {
      const { socket, acked, closed } = await rawSocket();
      socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${tenant.key}`, padding: "x".repeat(1024 * 1024) } }));
      expect(await closed).toBe(1009);
      expect(acked()).toBe(false);
    });

    it("bounds the connections of one address that have not authenticated yet: the 33rd waiting is closed with 1013, and one more is let in once one authenticates", async () => {
      const waiting = await Promise.all(Array.from({ length: 32 }, () => rawSocket()));
      try {
        const refused = await rawSocket();
        expect(await refused.closed).toBe(1013);
        const first = waiting[0]!;
        first.socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${tenant.key}` } }));
        await eventually(async () => (first.acked() ? true : undefined), () => "the first waiting connection was not acknowledged");
        const admitted = await rawSocket();
        admitted.socket.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${tenant.key}` } }));
        await eventually(async () => (admitted.acked() ? true : undefined), () => "a connection after one authenticated was not let in");
        admitted.socket.close();
      } finally {
        for (const { socket } of waiting) socket.close();
      }
    });

    it("closes a connection that sends no connection_init within 3 s with 4408", async () => {
      const started = performance.now();
      const { closed } = await rawSocket();
      expect(await closed).toBe(4408);
      expect(performance.now() - started).toBeGreaterThan(2900);
    });

    it("a revoked key can no longer open a connection", async () => {
      const created = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label: "ws" } });
      expect(created.status).toBe(201);
      const key = created.body.data.apiKey as string;
      expect(await execute(wsClient({ authorization: `Bearer ${key}` }), "{ viewer { kind } }")).toEqual({ data: { viewer: { kind: "TENANT" } } });

      const revoked = await call(server, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${created.body.data.keyId}`, { key: server.ownerKey });
      expect(revoked.status).toBe(200);
      expect(await closeCode({ authorization: `Bearer ${key}` })).toBe(4403);
      // The tenant's other key is unaffected.
      expect(await execute(wsClient({ "x-api-key": tenant.key }), "{ viewer { kind } }")).toEqual({ data: { viewer: { kind: "TENANT" } } });
    });
  });
});
