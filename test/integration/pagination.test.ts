import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { fillPath, isOwnerRoute, restRoutes, routeName } from "../helpers/route-table";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Cursor pagination on REST lists (docs/rest-api.md#pagination), on the owner's tenant and key lists. */

interface Pagination {
  total: number;
  limit: number;
  hasMore: boolean;
  nextCursor: string | null;
  prevCursor: string | null;
}
interface Page<T> {
  items: T[];
  pagination: Pagination;
}
interface TenantItem {
  tenantId: string;
  createdAt: string;
}

const TENANTS = 27;

describe("pagination", () => {
  let server: TestServer;
  let created: string[];
  beforeAll(async () => {
    server = await startTestServer();
    created = [];
    for (let i = 0; i < TENANTS; i++) {
      const response = await call(server, "POST", "/v1/tenants", { key: server.ownerKey, body: { name: `Agency ${i}`, email: `a${i}@x.test` } });
      created.push(response.body.data.tenantId);
    }
  });
  afterAll(() => server.close());

  const listTenants = (query: Record<string, string> = {}) => call(server, "GET", `/v1/tenants?${new URLSearchParams(query)}`, { key: server.ownerKey });
  const listKeys = (tenantId: string, query: Record<string, string> = {}) =>
    call(server, "GET", `/v1/tenants/${tenantId}/keys?${new URLSearchParams(query)}`, { key: server.ownerKey });

  async function tenantPage(query: Record<string, string>): Promise<Page<TenantItem>> {
    const response = await listTenants(query);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.success).toBe(true);
    return response.body.data;
  }

  /** Follows `nextCursor` (or `prevCursor`) from `first` until it is null; every page seen, in order. */
  async function walk(first: Page<TenantItem>, direction: "nextCursor" | "prevCursor", limit: number, between?: () => Promise<void>) {
    const pages = [first];
    for (let cursor = first.pagination[direction]; cursor !== null; cursor = pages.at(-1)!.pagination[direction]) {
      await between?.();
      pages.push(await tenantPage({ limit: String(limit), cursor }));
      expect(pages.length).toBeLessThan(100);
    }
    return pages;
  }

  const idsOf = (pages: Array<Page<TenantItem>>) => pages.flatMap((page) => page.items.map((item) => item.tenantId));

  /** Newest first: createdAt descending, then id descending. */
  function expectNewestFirst(items: TenantItem[]): void {
    for (let i = 1; i < items.length; i++) {
      const [a, b] = [items[i - 1]!, items[i]!];
      const ordered = a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.tenantId > b.tenantId);
      expect(ordered, `${JSON.stringify(a)} before ${JSON.stringify(b)}`).toBe(true);
    }
  }

  describe("walking the tenant list", () => {
    it("serves 20 items by default, with the envelope", async () => {
      const page = await tenantPage({});
      expect(page.items).toHaveLength(20);
      expect(page.pagination).toEqual({ total: TENANTS, limit: 20, hasMore: true, nextCursor: expect.any(String), prevCursor: null });
    });

    it("walks forward with nextCursor with no duplicates or gaps, newest first, null cursors at the ends", async () => {
      const pages = await walk(await tenantPage({ limit: "5" }), "nextCursor", 5);
      expect(pages.map((page) => page.items.length)).toEqual([5, 5, 5, 5, 5, 2]);
      const ids = idsOf(pages);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...created].sort());
      expectNewestFirst(pages.flatMap((page) => page.items));
      for (const [index, page] of pages.entries()) {
        const last = index === pages.length - 1;
        expect(page.pagination).toMatchObject({ total: TENANTS, limit: 5, hasMore: !last });
        expect(page.pagination.nextCursor === null).toBe(last);
        expect(page.pagination.prevCursor === null).toBe(index === 0);
      }
    });

    it("walks back from the last page with prevCursor through the same pages", async () => {
      const forward = await walk(await tenantPage({ limit: "5" }), "nextCursor", 5);
      const backward = await walk(forward.at(-1)!, "prevCursor", 5);
      expect(backward.map((page) => page.items)).toEqual(forward.map((page) => page.items).reverse());
      for (const page of backward.slice(1)) expect(page.pagination.hasMore).toBe(true);
      expect(backward.at(-1)!.pagination.prevCursor).toBeNull();
    });

    it("serves everything on one page when the limit allows, with both cursors null", async () => {
      const page = await tenantPage({ limit: "100" });
      expect(page.items).toHaveLength(TENANTS);
      expect(page.pagination).toEqual({ total: TENANTS, limit: 100, hasMore: false, nextCursor: null, prevCursor: null });
    });

    it("accepts limit 1", async () => {
      const page = await tenantPage({ limit: "1" });
      expect(page.items).toHaveLength(1);
      expect(page.pagination.limit).toBe(1);
    });
  });

  describe("limit", () => {
    it.each(["0", "101", "abc", "-1", "1.5", "1e1", "20x"])("refuses limit=%j with 400 LIMIT_OUT_OF_RANGE", async (limit) => {
      expectError(await listTenants({ limit }), 400, "LIMIT_OUT_OF_RANGE", "limit");
    });

    it("refuses an out-of-range limit on the key list too", async () => {
      const tenant = await createTenant(server);
      expectError(await listKeys(tenant.tenantId, { limit: "101" }), 400, "LIMIT_OUT_OF_RANGE", "limit");
    });
  });

  describe("unknown query parameters", () => {
    /** Every paginated GET route of the server's table: those whose query takes `limit`. */
    const lists = restRoutes.filter((route) => route.method === "GET" && route.query !== undefined && "limit" in ((route.query as { shape?: object }).shape ?? {}));

    it("covers the lists of the route table", () => {
      expect(lists.map(routeName)).toEqual(expect.arrayContaining(["GET /v1/air/orders", "GET /v1/wallet/transactions", "GET /v1/events", "GET /v1/tenants"]));
    });

    it.each(lists.map((route) => [routeName(route), route] as const))("%s answers 400 naming an unknown parameter, in the catalogue's shape", async (_name, route) => {
      const tenant = await createTenant(server);
      const path = fillPath(route.url, (name) => `${name}_neverexisted`);
      const key = isOwnerRoute(route) ? server.ownerKey : tenant.key;
      // The lookup's text is required: the one list with a parameter it cannot do without.
      const required = route.url === "/v1/air/locations" ? "&query=lon" : "";
      const response = await call(server, "GET", `${path}?limit=5${required}&passenger_name=Zzzz`, { key });
      expectError(response, 400, "validation_failed", "passenger_name");
      expect(response.body.message).toMatch(/^passenger_name: /);
    });

    it("keeps answering the parameters a list takes", async () => {
      const tenant = await createTenant(server);
      const orders = await call(server, "GET", "/v1/air/orders?status=pending&limit=5", { key: tenant.key });
      expect(orders.status, JSON.stringify(orders.body)).toBe(200);
    });
  });

  describe("cursors", () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await tenantPage({ limit: "5" })).pagination.nextCursor!;
    });

    /** The cursor with one character of its `part` (0 payload, 1 signature) changed. */
    function tampered(part: 0 | 1): string {
      const parts = cursor.split(".");
      const text = parts[part]!;
      const index = Math.floor(text.length / 2);
      parts[part] = text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1);
      return parts.join(".");
    }

    /** A cursor whose payload was rewritten to another position, keeping the old signature. */
    function forged(): string {
      const [payload, signature] = cursor.split(".");
      const body = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"));
      for (const [field, value] of Object.entries(body)) if (typeof value === "number") body[field] = value + 1;
      return `${Buffer.from(JSON.stringify(body)).toString("base64url")}.${signature}`;
    }

    it.each([
      ["a changed payload", () => tampered(0)],
      ["a changed signature", () => tampered(1)],
      ["a rewritten position with the old signature", forged],
      ["a truncated cursor", () => cursor.slice(0, -3)],
      ["a cursor without its signature", () => cursor.split(".")[0]!],
      ["an extra segment", () => `${cursor}.x`],
      ["garbage", () => "not-a-cursor"],
    ])("refuses %s with 400 INVALID_CURSOR", async (_case, make) => {
      expectError(await listTenants({ limit: "5", cursor: make() }), 400, "INVALID_CURSOR", "cursor");
    });

    it("accepts the untouched cursor", async () => {
      expect((await listTenants({ limit: "5", cursor })).status).toBe(200);
    });

    describe("from another list", () => {
      let alice: TenantFixture;
      let bob: TenantFixture;
      let aliceKeysCursor: string;
      beforeAll(async () => {
        alice = await createTenant(server);
        bob = await createTenant(server);
        for (const label of ["a", "b"]) await call(server, "POST", `/v1/tenants/${alice.tenantId}/keys`, { key: server.ownerKey, body: { label } });
        await call(server, "POST", `/v1/tenants/${bob.tenantId}/keys`, { key: server.ownerKey, body: { label: "b" } });
        const keys = await listKeys(alice.tenantId, { limit: "1" });
        aliceKeysCursor = keys.body.data.pagination.nextCursor;
        expect(aliceKeysCursor).toEqual(expect.any(String));
      });

      it("refuses a key-list cursor on the tenant list", async () => {
        expectError(await listTenants({ cursor: aliceKeysCursor }), 400, "INVALID_CURSOR", "cursor");
      });

      it("refuses a tenant-list cursor on a key list", async () => {
        expectError(await listKeys(alice.tenantId, { cursor }), 400, "INVALID_CURSOR", "cursor");
      });

      it("refuses one tenant's key-list cursor on another tenant's key list", async () => {
        expectError(await listKeys(bob.tenantId, { cursor: aliceKeysCursor }), 400, "INVALID_CURSOR", "cursor");
      });

      it("walks a tenant's keys, revoked ones included, newest first", async () => {
        await call(server, "DELETE", `/v1/tenants/${alice.tenantId}/keys/${alice.keyId}`, { key: server.ownerKey });
        const first = await listKeys(alice.tenantId, { limit: "2" });
        const second = await listKeys(alice.tenantId, { limit: "2", cursor: first.body.data.pagination.nextCursor });
        expect(first.body.data.pagination).toMatchObject({ total: 3, limit: 2, hasMore: true, prevCursor: null });
        expect(second.body.data.pagination).toMatchObject({ total: 3, limit: 2, hasMore: false, nextCursor: null, prevCursor: expect.any(String) });
        const items = [...first.body.data.items, ...second.body.data.items];
        expect(items.map((item: { label: string }) => item.label)).toEqual(["b", "a", "test"]);
        expect(items[2].revokedAt).toEqual(expect.any(String));
      });
    });
  });

  describe("under concurrent inserts", () => {
    const addTenant = () =>
      call(server, "POST", "/v1/tenants", { key: server.ownerKey, body: { name: "Newcomer", email: "new@x.test" } }).then((response) => {
        expect(response.status).toBe(201);
      });

    it("a forward walk yields exactly the items that existed when it began", async () => {
      const snapshot = idsOf([await tenantPage({ limit: "100" })]);
      const pages = await walk(await tenantPage({ limit: "4" }), "nextCursor", 4, async () => {
        await addTenant();
        await addTenant();
      });
      expect(idsOf(pages)).toEqual(snapshot);
      expect(pages.at(-1)!.pagination.total).toBe(snapshot.length + 2 * (pages.length - 1));
    });

    it("a backward walk continues past the old first page to the items inserted since", async () => {
      const forward = await walk(await tenantPage({ limit: "6" }), "nextCursor", 6);
      await addTenant();
      const backward = await walk(forward.at(-1)!, "prevCursor", 6);
      const everything = idsOf([await tenantPage({ limit: "100" })]);
      expect(idsOf(backward.reverse())).toEqual(everything);
    });
  });
});
