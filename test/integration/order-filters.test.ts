import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { bookOffer, passengersOf, searchForBooking } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * The orders list as the console pages it: GraphQL `orders` narrowed by status,
 * booking reference, passenger name and booking time, one keyset page at a time, with cursors
 * bound to their filter; and a tenant with 10,000 orders paged without reading them all.
 */
const ORDERS = `query ($first: Int, $after: String, $status: OrderStatus, $bookingReference: String, $passengerName: String, $createdFrom: DateTime, $createdBefore: DateTime) {
  orders(first: $first, after: $after, status: $status, bookingReference: $bookingReference, passengerName: $passengerName, createdFrom: $createdFrom, createdBefore: $createdBefore) {
    totalCount
    nodes { id bookingReference }
    pageInfo { hasNextPage endCursor }
  }
}`;

describe("orders filters", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  /** Booked oldest first: Grace Hopper, then Ada Lovelace, then Ada Byron (cancelled). */
  let hopper: any, lovelace: any, byron: any;

  const orders = async (variables: Record<string, unknown>, key = tenant.key) => {
    const response = await graphql(server, ORDERS, variables, { key });
    return response.body;
  };
  const ids = async (variables: Record<string, unknown>) => (await orders(variables)).data.orders.nodes.map((order: { id: string }) => order.id);

  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant());
    const [first, second, third] = await searchForBooking(server, tenant.key);
    hopper = await bookOffer(server, tenant.key, first, { passengers: passengersOf(first, { given_name: "Grace", family_name: "Hopper" }) });
    lovelace = await bookOffer(server, tenant.key, second, { passengers: passengersOf(second, { given_name: "Ada", family_name: "Lovelace" }) });
    byron = await bookOffer(server, tenant.key, third, { passengers: passengersOf(third, { given_name: "Ada", family_name: "Byron" }) });
    const cancelled = await graphql(server, `mutation ($id: ID!) { cancelOrder(orderId: $id) { status } }`, { id: byron.id }, { key: tenant.key });
    expect(cancelled.body.data.cancelOrder.status).toBe("CANCELED");
  });
  afterAll(() => server.close());

  it("with no filter: every order, newest first", async () => {
    expect(await ids({})).toEqual([byron.id, lovelace.id, hopper.id]);
  });

  it("by passenger name: each word in a passenger's given or family name, any case", async () => {
    expect(await ids({ passengerName: "ada" })).toEqual([byron.id, lovelace.id]);
    expect(await ids({ passengerName: "  LOVE  ada " })).toEqual([lovelace.id]);
    expect(await ids({ passengerName: "hop" })).toEqual([hopper.id]);
    expect(await ids({ passengerName: "Grace Lovelace" })).toEqual([]);
    expect(await ids({ passengerName: "   " })).toEqual([byron.id, lovelace.id, hopper.id]);
  });

  it("by passenger name: %, _ and \\ are the characters they are, never wildcards or escapes", async () => {
    // No name holds one of them, so no order matches.
    for (const text of ["%", "_", "\\", "Gr_ce", "Ada%ce", "%ada", "ada_", "\\Ada", "Lo\\velace", "_ _"]) {
      expect(await ids({ passengerName: text }), text).toEqual([]);
    }
  });

  it("by booking reference, exactly and in any case", async () => {
    expect(await ids({ bookingReference: lovelace.booking_reference.toLowerCase() })).toEqual([lovelace.id]);
    expect(await ids({ bookingReference: lovelace.booking_reference.slice(1) })).toEqual([]);
  });

  it("by status and booking time, combined with the other filters", async () => {
    expect(await ids({ status: "CANCELED" })).toEqual([byron.id]);
    expect(await ids({ status: "PENDING", passengerName: "Ada" })).toEqual([lovelace.id]);
    expect(await ids({ createdFrom: lovelace.created_at })).toEqual([byron.id, lovelace.id]);
    expect(await ids({ createdBefore: lovelace.created_at })).toEqual([hopper.id]);
    expect(await ids({ createdFrom: lovelace.created_at, createdBefore: byron.created_at })).toEqual([lovelace.id]);
  });

  it("pages a filtered list by cursor; a cursor of one filter is refused by another", async () => {
    const first = (await orders({ first: 1, passengerName: "Ada" })).data.orders;
    expect(first).toMatchObject({ totalCount: 2, nodes: [{ id: byron.id }], pageInfo: { hasNextPage: true } });
    const second = (await orders({ first: 1, passengerName: "Ada", after: first.pageInfo.endCursor })).data.orders;
    expect(second).toMatchObject({ totalCount: 2, nodes: [{ id: lovelace.id }], pageInfo: { hasNextPage: false } });
    const replayed = await orders({ first: 1, passengerName: "Grace", after: first.pageInfo.endCursor });
    expect(replayed.errors?.[0]?.extensions.code).toBe("INVALID_CURSOR");
  });

  it("refuses a passenger name longer than anyone's with validation_failed naming it", async () => {
    const response = await orders({ passengerName: "a b c d e f" });
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", field: "passengerName" });
  });

  it("pages 10,000 orders 25 at a time, reading one page of rows per request", async () => {
    const bulk = await createTenant(server);
    const [offer] = await searchForBooking(server, bulk.key);
    const model = await bookOffer(server, bulk.key, offer);
    // 9,999 copies of the booked order, written straight to the database: booking them through
    // the API would take minutes and test nothing more.
    const copies = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999)
      INSERT INTO "Order" ("id", "tenantId", "offerId", "status", "totalAmount", "currency", "offerSnapshot", "services", "metadata",
        "bookingReference", "failureReason", "refundRequestedAt", "paymentRequiredBy", "paidAt", "cancellationReason", "createdAt", "updatedAt")
      SELECT 'ord_bulk' || n.i, o."tenantId", 'off_bulk' || n.i, o."status", o."totalAmount", o."currency", o."offerSnapshot", o."services", o."metadata",
        o."bookingReference", o."failureReason", o."refundRequestedAt", o."paymentRequiredBy", o."paidAt", o."cancellationReason", o."createdAt", o."updatedAt"
      FROM n CROSS JOIN "Order" o WHERE o."id" = '${model.id}'`;
    expect(await server.db.prisma.$executeRawUnsafe(copies)).toBe(9999);

    const { result, queries } = await server.recordQueries(() => graphql(server, ORDERS, { first: 25 }, { key: bulk.key }));
    const page = result.body.data.orders;
    expect(page.totalCount).toBe(10_000);
    expect(page.nodes).toHaveLength(25);
    expect(page.pageInfo.hasNextPage).toBe(true);
    // The rows come from one keyset query of one page (and one more row, to know there is a next).
    const reads = queries.filter((sql) => /FROM [`"](\w+[`"]\.[`"])?Order[`"] /.test(sql) && !/COUNT\(/.test(sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const sql of reads) expect(sql).toMatch(/LIMIT/i);

    const next = (await orders({ first: 25, after: page.pageInfo.endCursor }, bulk.key)).data.orders;
    expect(next.nodes).toHaveLength(25);
    expect(new Set([...page.nodes, ...next.nodes].map((order: { id: string }) => order.id)).size).toBe(50);
  });
});
