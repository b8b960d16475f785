import { Kind, getOperationAST, getVariableValues, visit, type DocumentNode, type GraphQLSchema } from "graphql";
import { getComplexity, simpleEstimator, type ComplexityEstimator } from "graphql-query-complexity";

/** A list field without `first`/`last`/`limit` in the query is priced at the largest default page (orders: 25). */
const DEFAULT_PAGE_SIZE = 25;
/** Larger pages are refused by the resolvers (LIMIT_OUT_OF_RANGE); pricing one above it says nothing more. */
const MAX_PAGE_SIZE = 100;
const PAGE_ARGUMENTS = new Set(["first", "last", "limit"]);
/** Selections (fragments spread each time) pricing walks before giving up: past it an operation cannot be priced, and is refused. */
export const MAX_PRICED_FIELDS = 10_000;

/**
 * A paged field (a connection with `first`/`last`, or a list with `limit`) costs one plus its
 * page size times its selection's cost; anything else falls through to the simple estimator
 * (one plus its selection).
 */
const pagedFieldEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (!field.args.some((arg) => PAGE_ARGUMENTS.has(arg.name))) return undefined;
  const requested = args.first ?? args.last ?? args.limit;
  const pageSize = typeof requested === "number" ? Math.min(Math.max(requested, 0), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
  return 1 + pageSize * childComplexity;
};

/**
 * Query fields that cost the work they ask for rather than their selection (the fare calendar
 * and destination ideas: search/calendar-work.ts): `cost` prices one from its arguments,
 * undefined when it cannot (the field's own rules then refuse it, and it costs as any field).
 */
export interface WorkPricedFields {
  fields: ReadonlySet<string>;
  cost(field: string, args: Record<string, unknown>): number | undefined;
}

const workEstimator =
  (priced: WorkPricedFields): ComplexityEstimator =>
  ({ type, field, args, childComplexity }) => {
    if (type.name !== "Query" || !priced.fields.has(field.name)) return undefined;
    const cost = priced.cost(field.name, args);
    return cost === undefined ? undefined : cost + childComplexity;
  };

const estimators = [pagedFieldEstimator, simpleEstimator({ defaultComplexity: 1 })];

interface PricedDocument {
  /** The variables the cost depends on: page sizes, `@skip`/`@include` conditions, the arguments of work-priced fields. */
  costVariables: string[];
  /** Costs by operation name and those variables' values (null: cannot be priced). */
  costs: Map<string, number | null>;
}

/** Apollo hands the same parsed document for the same query text: priced once per distinct page sizes. */
const MAX_COSTS_PER_DOCUMENT = 100;
const pricedDocuments = new WeakMap<DocumentNode, PricedDocument>();

function costVariablesOf(document: DocumentNode, workFields: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  visit(document, {
    Argument(argument, _key, _parent, _path, ancestors) {
      const owner = ancestors[ancestors.length - 1];
      const pageArgument = PAGE_ARGUMENTS.has(argument.name.value);
      const condition = owner && "kind" in owner && owner.kind === Kind.DIRECTIVE;
      const ofWorkField = owner && "kind" in owner && owner.kind === Kind.FIELD && workFields.has(owner.name.value);
      if ((pageArgument || condition || ofWorkField) && argument.value.kind === Kind.VARIABLE) names.add(argument.value.name.value);
    },
  });
  return [...names];
}

/** Whether the operation's variables fit their types; those that do not are refused before any field runs. */
function variablesFit(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined): boolean {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions;
  return !definitions?.length || !("errors" in getVariableValues(schema, definitions, variables ?? {}, { maxErrors: 1 }));
}

/**
 * The cost of one operation of a validated document: each field 1, paged fields times their
 * page size, fields that stand for more work (`workPriced`) what it costs. Variables that do not fit their types cost nothing here: execution refuses them
 * (BAD_USER_INPUT) before any field runs. Null when it cannot be priced, above all past
 * MAX_PRICED_FIELDS, which fragments doubling at each level reach in a few hundred bytes: the
 * caller refuses it (such an operation once cost 0 and ran).
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  variables: Record<string, unknown> | undefined,
  workPriced: WorkPricedFields = { fields: new Set(), cost: () => undefined },
): number | null {
  let priced = pricedDocuments.get(document);
  if (!priced) pricedDocuments.set(document, (priced = { costVariables: costVariablesOf(document, workPriced.fields), costs: new Map() }));
  // Most documents price no variable: their key is the operation's name alone.
  const key = priced.costVariables.length === 0 ? (operationName ?? "") : JSON.stringify([operationName ?? null, ...priced.costVariables.map((name) => variables?.[name] ?? null)]);
  let cost = priced.costs.get(key);
  if (cost === undefined) {
    if (!variablesFit(schema, document, operationName, variables)) return 0;
    try {
      cost = getComplexity({ schema, query: document, operationName, variables, estimators: [workEstimator(workPriced), ...estimators], maxQueryNodes: MAX_PRICED_FIELDS });
    } catch {
      cost = null;
    }
    // A client cycling through page sizes would otherwise grow this without end.
    if (priced.costs.size >= MAX_COSTS_PER_DOCUMENT) priced.costs.clear();
    priced.costs.set(key, cost);
  }
  return cost;
}
