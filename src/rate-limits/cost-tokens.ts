/** Cost points per rate-limit token: a small GraphQL query (cost under 10) takes one token, like a REST call. */
const COST_PER_TOKEN = 10;

/**
 * Rate-limit tokens an operation of this cost takes: one per started ten points of cost. A
 * GraphQL operation's cost is its fields' (graphql/query-cost.ts); a REST route that does more
 * work than a request (a fare calendar, destination ideas) is priced the same way.
 */
export function tokensForCost(cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_PER_TOKEN));
}
