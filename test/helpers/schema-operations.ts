import { readFileSync } from "node:fs";
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLInputType,
} from "graphql";

/**
 * The GraphQL schema the server serves (src/graphql/schema.ts reads the same SDL), built with the
 * tests' own `graphql` module, and operations written from it: for suites that must cover every
 * root field, new ones included.
 */
export const servedSchema = buildSchema(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"));

export type RootField = GraphQLField<unknown, unknown>;

/** What an id names, for choosing real, foreign or unknown ones. */
export type IdKind = "tenant" | "key" | "order" | "document" | "offer" | "delivery" | "other";

/** What a REST path parameter names, from the route's URL. */
export function pathIdKind(url: string, param: string): IdKind {
  if (param === "keyId") return "key";
  if (param === "documentId") return "document";
  if (url.startsWith("/v1/tenants/")) return "tenant";
  if (url.startsWith("/v1/air/orders/")) return "order";
  if (url.startsWith("/v1/air/offers/")) return "offer";
  if (url.startsWith("/v1/webhooks/deliveries/")) return "delivery";
  return "other";
}

/** What a GraphQL ID argument names, from its name and its root field's. */
export function argIdKind(field: string, arg: string): IdKind {
  if (arg === "keyId") return "key";
  if (arg === "tenantId" || (arg === "id" && /tenant/i.test(field))) return "tenant";
  if (arg === "orderId" || (arg === "id" && /order/i.test(field))) return "order";
  if (arg === "offerId" || (arg === "id" && /offer/i.test(field))) return "offer";
  if (arg === "id" && /webhook/i.test(field)) return "delivery";
  return "other";
}

/** Whether the argument's type is `ID` (nullable or not). */
export function isIdArgument(type: GraphQLInputType): boolean {
  const inner = isNonNullType(type) ? type.ofType : type;
  return !isListType(inner) && getNamedType(inner).name === "ID";
}

/** The fields of a type a selection can name without arguments: those with no required one. */
export function selectableFields(type: GraphQLObjectType): RootField[] {
  return Object.values(type.getFields()).filter((field) => field.args.every((arg) => !isNonNullType(arg.type)));
}

/** Whether a field is a page that takes a size (`first`). */
export function takesPageSize(field: RootField): boolean {
  return field.args.some((arg) => arg.name === "first");
}

/** The leaf fields of the field's result that need no argument: what an operation reads back. */
function selectionOf(field: RootField): string {
  const type = getNamedType(field.type);
  if (isLeafType(type) || !isObjectType(type)) return "";
  const leaves = selectableFields(type).filter((child) => isLeafType(getNamedType(child.type)));
  return `{ __typename ${leaves.map((child) => child.name).join(" ")} }`;
}

/** `mutation Op($a: ID!) { field(a: $a) { __typename … } }`: every argument as a variable. */
export function operationFor(kind: "query" | "mutation" | "subscription", field: RootField, selection = selectionOf(field)): string {
  const declared = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(", ");
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  return `${kind} Op${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""} ${selection} }`;
}

/** A smallest value of the type: required fields only, one list item, the first enum value. */
/** A value of each input scalar with a shape (src/graphql/input-scalars.ts). */
export const SCALAR_SAMPLES: Record<string, string> = {
  LocalDate: "2027-03-14",
  IataCode: "LHR",
  CurrencyCode: "USD",
  CountryCode: "GB",
  DecimalAmount: "10.00",
  YearMonth: "2027-03",
};

export function minimalValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return minimalValue(type.ofType);
  if (isListType(type)) return [minimalValue(type.ofType)];
  if (isInputObjectType(type)) {
    const required = Object.values(type.getFields()).filter((field) => isNonNullType(field.type));
    return Object.fromEntries(required.map((field) => [field.name, minimalValue(field.type)]));
  }
  if (isEnumType(type)) return type.getValues()[0]!.value;
  switch (type.name) {
    case "Int":
    case "Float":
      return 1;
    case "Boolean":
      return true;
    default:
      return SCALAR_SAMPLES[type.name] ?? "x";
  }
}

/**
 * An answer without what differs from one request to the next whoever answers: page cursors carry
 * their expiry time, and request counts grow.
 */
export function withoutVolatileValues(body: string): string {
  return body
    .replace(/"(cursor|startCursor|endCursor)":"[^"]+"/g, '"$1":"…"')
    .replace(/"apiRequests":\d+/g, '"apiRequests":"…"')
    // A clock's reading (sandboxClock) moves on between two answers.
    .replace(/"now":"[^"]+"/g, '"now":"…"');
}

/** Every field of a type that needs no argument, nested `depth` levels, pages of two. */
export function fullSelection(type: GraphQLNamedType, depth: number): string {
  if (isLeafType(type)) return "";
  if (depth === 0 || !isObjectType(type)) return "{ __typename }";
  const selections = selectableFields(type).map((field) => {
    const paged = takesPageSize(field) ? "(first: 2)" : "";
    return `${field.name}${paged} ${fullSelection(getNamedType(field.type), depth - 1)}`;
  });
  return `{ __typename ${selections.join(" ")} }`;
}
