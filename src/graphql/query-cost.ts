import type { DocumentNode, GraphQLSchema } from "graphql";
import { getComplexity, simpleEstimator, type ComplexityEstimator } from "graphql-query-complexity";

/** A list field without `first`/`last`/`limit` in the query is priced at the largest default page (orders: 25). */
const DEFAULT_PAGE_SIZE = 25;
/** Larger pages are refused by the resolvers (LIMIT_OUT_OF_RANGE); pricing one above it says nothing more. */
const MAX_PAGE_SIZE = 100;
/** Cost points per rate-limit token: a small query (cost under 10) takes one token, like a REST call. */
const COST_PER_TOKEN = 10;

/**
 * A paged field (a connection with `first`/`last`, or a list with `limit`) costs one plus its
 * page size times its selection's cost; anything else falls through to the simple estimator
 * (one plus its selection).
 */
const pagedFieldEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  const paged = field.args.some((arg) => arg.name === "first" || arg.name === "last" || arg.name === "limit");
  if (!paged) return undefined;
  const requested = args.first ?? args.last ?? args.limit;
  const pageSize = typeof requested === "number" ? Math.min(Math.max(requested, 0), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  return 1 + pageSize * childComplexity;
};

const estimators = [pagedFieldEstimator, simpleEstimator({ defaultComplexity: 1 })];

/** Costs of documents sent without variables (their cost cannot change), per operation name. */
const costsWithoutVariables = new WeakMap<DocumentNode, Map<string, number>>();

/**
 * The cost of one operation of a validated document: each field 1, paged fields times their
 * page size. Apollo hands the same parsed document for the same query text, so a query sent
 * without variables is priced once.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined): number {
  const compute = () => getComplexity({ schema, query: document, operationName, variables, estimators });
  if (variables && Object.keys(variables).length > 0) return compute();
  let costs = costsWithoutVariables.get(document);
  if (!costs) costsWithoutVariables.set(document, (costs = new Map()));
  const name = operationName ?? "";
  let cost = costs.get(name);
  if (cost === undefined) costs.set(name, (cost = compute()));
  return cost;
}

/** Rate-limit tokens an operation of this cost takes: one per started ten points of cost. */
export function tokensForCost(cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_PER_TOKEN));
}
