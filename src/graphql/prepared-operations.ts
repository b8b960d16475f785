import { getOperationAST, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { RecentMap } from "../recent-map";

/** One operation of an accepted document, compiled to a plain function by graphql-jit. */
export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  compiled: CompiledQuery;
}

interface AcceptedDocument {
  document: DocumentNode;
  /** By the name a request gave ("" for none); null when the operation cannot be prepared. */
  operations: Map<string, PreparedOperation | null>;
}

/**
 * Distinct query texts kept (at least; at most twice as many): clients send a handful of
 * operations over and over. Longer texts are not kept, which bounds the memory a client
 * inventing documents can hold (a few MB of text and its syntax trees). 16,000 characters holds
 * a page of orders with every field an order now has (servicing, changes, history): ~12,000.
 */
export const DOCUMENTS_KEPT = 250;
export const MAX_SOURCE_LENGTH = 16_000;

/**
 * Documents Apollo Server has parsed and validated (our limit rules included), by party
 * (party-caches.ts) and query text, each operation compiled once on its first repeat. Like a
 * database's prepared statements: the rules a document must pass are Apollo's and are checked
 * once, and a repeat of the same text runs its compiled plan without Apollo's per-request
 * pipeline (prepared-http.ts). Validity depends only on the schema and the text, but a plan
 * serves only the party that sent it: which pipeline answers (a metric, and the time an answer
 * takes) must not tell one tenant what another sent.
 */
export class PreparedOperations {
  readonly #documents = new RecentMap<string, AcceptedDocument>(DOCUMENTS_KEPT);

  constructor(readonly schema: GraphQLSchema) {}

  /** Records a document Apollo accepted from `party`; `source` is its query text. */
  accept(party: string, source: string, document: DocumentNode): void {
    const key = `${party}\n${source}`;
    if (source.length <= MAX_SOURCE_LENGTH && !this.#documents.get(key)) this.#documents.set(key, { document, operations: new Map() });
  }

  /** The prepared operation for a query text Apollo accepted from `party` before, or null. */
  lookup(party: string, source: string, operationName: string | undefined): PreparedOperation | null {
    const accepted = this.#documents.get(`${party}\n${source}`);
    if (!accepted) return null;
    const key = operationName ?? "";
    const known = accepted.operations.get(key);
    if (known !== undefined) return known;
    // Only the document's own operations are kept, so names a client invents add nothing.
    const operation = getOperationAST(accepted.document, operationName);
    if (!operation) return null;
    const prepared = this.#prepare(accepted.document, operation, operationName);
    accepted.operations.set(key, prepared);
    return prepared;
  }

  /** Queries and mutations only: a subscription over HTTP is Apollo's to refuse. */
  #prepare(document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): PreparedOperation | null {
    if (operation.operation === "subscription") return null;
    const compiled = compileQuery(this.schema, document, operationName);
    return isCompiledQuery(compiled) ? { document, operation, compiled } : null;
  }
}
