import { makeExecutableSchema } from "@graphql-tools/schema";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { PreparedOperations } from "../../src/graphql/prepared-operations";

const schema = makeExecutableSchema({
  typeDefs: "type Query { hello(name: String): String } type Mutation { touch: Int } type Subscription { ticks: Int }",
  resolvers: { Query: { hello: (_parent: unknown, { name }: { name?: string }) => `hello ${name ?? "you"}` }, Mutation: { touch: () => 1 } },
});

const PARTY = "tenant:ten_a";

function withAccepted(source: string): PreparedOperations {
  const prepared = new PreparedOperations(schema);
  prepared.accept(PARTY, source, parse(source));
  return prepared;
}

/** The store of documents Apollo accepted (src/graphql/prepared-operations.ts). */
describe("prepared operations", () => {
  it("knows only texts Apollo accepted, exactly as sent", () => {
    const prepared = withAccepted("{ hello }");
    expect(prepared.lookup(PARTY, "{ hello }", undefined)).not.toBeNull();
    expect(prepared.lookup(PARTY, "{ hello }\n", undefined)).toBeNull();
    expect(prepared.lookup(PARTY, "{ hello(name: \"x\") }", undefined)).toBeNull();
  });

  it("knows a text only for the party it was accepted from", () => {
    const prepared = withAccepted("{ hello }");
    expect(prepared.lookup("tenant:ten_b", "{ hello }", undefined)).toBeNull();
    expect(prepared.lookup("owner", "{ hello }", undefined)).toBeNull();
    expect(prepared.lookup(PARTY, "{ hello }", undefined)).not.toBeNull();
  });

  it("compiles an operation once and runs it", async () => {
    const prepared = withAccepted("query Greet($name: String) { hello(name: $name) }");
    const plan = prepared.lookup(PARTY, "query Greet($name: String) { hello(name: $name) }", "Greet");
    expect(plan).toBe(prepared.lookup(PARTY, "query Greet($name: String) { hello(name: $name) }", "Greet"));
    expect(await plan!.compiled.query(undefined, {}, { name: "Ada" })).toEqual({ data: { hello: "hello Ada" } });
  });

  it("picks the operation the request names, and none for a name the document lacks", () => {
    const source = "query A { hello } mutation B { touch }";
    const prepared = withAccepted(source);
    expect(prepared.lookup(PARTY, source, "A")!.operation.operation).toBe("query");
    expect(prepared.lookup(PARTY, source, "B")!.operation.operation).toBe("mutation");
    expect(prepared.lookup(PARTY, source, "C")).toBeNull();
    // Without a name, a document of several operations has no operation to run (Apollo's error).
    expect(prepared.lookup(PARTY, source, undefined)).toBeNull();
  });

  it("leaves subscriptions to Apollo", () => {
    const prepared = withAccepted("subscription { ticks }");
    expect(prepared.lookup(PARTY, "subscription { ticks }", undefined)).toBeNull();
  });

  it("does not keep texts over 16,000 characters", () => {
    const long = `{ hello ${" ".repeat(16_000)}}`;
    expect(withAccepted(long).lookup(PARTY, long, undefined)).toBeNull();
  });
});
