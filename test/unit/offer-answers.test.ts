import { getOperationAST, parse } from "graphql";
import { describe, expect, it } from "vitest";
import type { RequestContext } from "../../src/context/request-context";
import { OfferAnswers, offerIdsOf } from "../../src/graphql/offer-answers";

/** Which prepared operations' answers are kept (those that only read offers, and not `expired`), and under which key. */
const ctx = (keyId: string, serviceTenantId: string | null = null) => ({ principal: { kind: "tenant", keyId }, serviceTenantId }) as unknown as RequestContext;

function keyOf(query: string, variables?: Record<string, unknown>, caller = ctx("key_1")): string | null {
  const document = parse(query);
  return new OfferAnswers().keyFor(document, getOperationAST(document)!, query, variables, caller);
}

describe("offer answers kept for prepared operations", () => {
  it("keeps the answers of operations whose every root field is offer(id:)", () => {
    expect(keyOf('{ offer(id: "off_1") { id slices { segments { id } } } }')).not.toBeNull();
    expect(keyOf('query($a: ID!, $b: ID!) { a: offer(id: $a) { id } b: offer(id: $b) { ...Fare } } fragment Fare on Offer { totalAmount }', { a: "off_1", b: "off_2" })).not.toBeNull();
  });

  it("never keeps what changes: `expired` (also in a fragment), other root fields, mutations", () => {
    for (const query of [
      '{ offer(id: "off_1") { id expired } }',
      '{ offer(id: "off_1") { ...Timed } } fragment Timed on Offer { expired }',
      '{ offer(id: "off_1") { id } viewer { kind } }',
      "{ offers(first: 5) { nodes { id } } }",
      'mutation { cancelOrder(orderId: "ord_1") { id } }',
    ]) {
      expect(keyOf(query), query).toBeNull();
    }
  });

  it("keys an answer by the caller's key and Service-Tenant, the variables and the text", () => {
    const query = "query($id: ID!) { offer(id: $id) { id } }";
    const keys = [
      keyOf(query, { id: "off_1" }),
      keyOf(query, { id: "off_2" }),
      keyOf(query, { id: "off_1" }, ctx("key_2")),
      keyOf(query, { id: "off_1" }, ctx("key_1", "ten_2")),
      keyOf(`${query} `, { id: "off_1" }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keyOf(query, { id: "off_1" })).toBe(keys[0]);
  });

  it("reads the ids of the root fields, literal or variable", () => {
    const document = parse('query($b: ID!) { a: offer(id: "off_a") { id } b: offer(id: $b) { id } }');
    expect(offerIdsOf(getOperationAST(document)!, { b: "off_b" })).toEqual(["off_a", "off_b"]);
  });
});
