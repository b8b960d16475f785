import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { Kind, parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { playgroundTabs } from "../../src/graphql/playground-examples";

interface ScannedOperation {
  kind: string;
  name: string | null;
  fields: string[];
  fingerprint: string;
}
interface PlaygroundOperations {
  operationsOf(text: string): ScannedOperation[] | null;
  operationToRun(text: string, operationName?: string | null): ScannedOperation | null;
}

/** The browser script as the page runs it (it defines PlaygroundOperations on the page's global). */
function loadScript(): PlaygroundOperations {
  const sandbox: { PlaygroundOperations?: PlaygroundOperations } = {};
  runInNewContext(readFileSync(new URL("../../src/graphql/playground-operations.js", import.meta.url), "utf8"), sandbox);
  return sandbox.PlaygroundOperations!;
}

/** What graphql-js reads: each operation's kind, name and root selections. */
function parsed(text: string): Array<{ kind: string; name: string | null; fields: string[] }> {
  return parse(text)
    .definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => ({
      kind: operation.operation,
      name: operation.name?.value ?? null,
      fields: operation.selectionSet.selections.flatMap((selection) =>
        selection.kind === Kind.FIELD ? [selection.name.value] : selection.kind === Kind.FRAGMENT_SPREAD ? [`...${selection.name.value}`] : [],
      ),
    }));
}

/**
 * The playground decides from a document's text whether Run would send a mutation or a
 * subscription that came with the page's link (src/graphql/playground-operations.js). It must
 * read a document as the server does, whatever comments, strings and layout try to hide.
 */
describe("the playground's reading of operations", () => {
  const { operationsOf, operationToRun } = loadScript();

  const documents = [
    "mutation { updateTenantConfig(input: { timezone: \"Asia/Tokyo\" }) { timezone } }",
    "{ viewer { kind } }",
    "# mutation { deleteTenant(id: \"x\") { id } }\nquery Safe { viewer { kind } }",
    "query Q { a: viewer { kind } locations(query: \"mutation {\") { name } }",
    'query Block { locations(query: """ } mutation M { x } \\""" """) { name } }',
    "query A { viewer { kind } }\nmutation B($id: ID!, $s: TenantStatusInput! = SUSPENDED) @x(y: 1) { updateTenantStatus(id: $id, status: $s) { id } ...F }\nfragment F on Mutation { deleteTenant(id: \"1\") { id } }",
    "subscription Watch { orderEvents { type } }",
    "mutation { ... on Mutation { ticketOrder(orderId: \"o\", idempotencyKey: \"k\") { id } } createOrder(input: {}, idempotencyKey: \"k\") @include(if: true) { id } }",
    "\uFEFFquery,Commas,{,viewer,{,kind,},}\r\nmutation\rM2{x:updateTenantConfig(input:{}){id}}",
    ...playgroundTabs(new Date()).map((tab) => tab.query),
  ];

  it.each(documents)("reads %j as graphql-js parses it", (text) => {
    const scanned = operationsOf(text);
    expect(scanned?.map(({ kind, name, fields }) => ({ kind, name, fields }))).toEqual(parsed(text));
  });

  it("picks the operation the server runs: the one named, or the only one", () => {
    const text = "query A { viewer { kind } } mutation B { cancelOrder(orderId: \"o\") { id } }";
    expect(operationToRun(text, "B")?.kind).toBe("mutation");
    expect(operationToRun(text, "A")?.kind).toBe("query");
    expect(operationToRun(text, null)).toBeNull();
    expect(operationToRun(text, "C")).toBeNull();
    expect(operationToRun("mutation { x }", undefined)?.kind).toBe("mutation");
  });

  it("gives an operation the same fingerprint whatever surrounds it, and another to any other text", () => {
    const linked = operationsOf("mutation M { updateTenantConfig(input: { timezone: \"UTC\" }) { id } }")![0]!.fingerprint;
    expect(operationToRun("# note\nmutation   M{updateTenantConfig(input:{timezone:\"UTC\"}),{id}}\n", "M")!.fingerprint).toBe(linked);
    expect(operationToRun("query Other { viewer { kind } }\nmutation M { updateTenantConfig(input: { timezone: \"UTC\" }) { id } }", "M")!.fingerprint).toBe(linked);
    expect(operationToRun("mutation M { updateTenantConfig(input: { timezone: \"GMT\" }) { id } }", "M")!.fingerprint).not.toBe(linked);
  });

  it("reads nothing from a document the server cannot parse either", () => {
    for (const text of ['{ viewer(x: "unclosed) { kind } }', "{ viewer { kind }", 'query { a(s: """open) }', "query ~ { a }"]) {
      expect(operationsOf(text), text).toBeNull();
      expect(() => parse(text), text).toThrow();
    }
  });
});
