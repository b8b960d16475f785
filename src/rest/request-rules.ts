import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/**
 * The request side of /openapi.json is the route's zod schemas, turned into JSON Schema by zod:
 * every check zod knows (lengths, ranges, patterns, formats, enums, `required`, no unknown field)
 * reaches the document by itself. A refinement (`.refine`, `.superRefine`) does not: zod cannot
 * see into a function. So every refinement of a request schema states its rule with JSON Schema
 * keywords in `.meta()` on the same schema (a `pattern`, an `enum`, `minProperties`, a `oneOf`…),
 * or, for a rule JSON Schema cannot state, says it in words under `x-rule`; the document is not
 * built otherwise (docs/request-rules.md). The schema-driven tests hold the statements to the
 * server: valid requests generated from the document are never refused for their shape, and
 * invalid ones always are.
 */
const STATING_KEYWORDS = new Set([
  "type", "enum", "const", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "contains", "items", "minProperties", "maxProperties",
  "propertyNames", "required", "dependentRequired", "oneOf", "anyOf", "allOf", "not", "if", "x-rule",
]);

/** Where in `schema` a refinement has no statement in the document: `body.slices[].origin`-like paths. */
export function unstatedRefinements(schema: z.ZodType, path: string): string[] {
  const found: string[] = [];
  const seen = new Set<z.ZodType>();
  const walk = (node: z.ZodType, at: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def as unknown as Record<string, any>;
    const refined = ((def.checks ?? []) as Array<{ _zod: { def: { check: string } } }>).some((check) => check._zod.def.check === "custom");
    if (refined && !Object.keys(z.globalRegistry.get(node) ?? {}).some((key) => STATING_KEYWORDS.has(key))) found.push(at);
    const children: Array<[z.ZodType | undefined, string]> = [
      ...Object.entries((def.shape ?? {}) as Record<string, z.ZodType>).map(([key, child]): [z.ZodType, string] => [child, `${at}.${key}`]),
      [def.element, `${at}[]`],
      [def.innerType, at],
      [def.in, at],
      [def.out, at],
      [def.keyType, `${at}{key}`],
      [def.valueType, `${at}{}`],
      [def.left, at],
      [def.right, at],
      ...((def.options ?? []) as z.ZodType[]).map((option): [z.ZodType, string] => [option, at]),
    ];
    for (const [child, childPath] of children) if (child) walk(child, childPath);
  };
  walk(schema, path);
  return found;
}

/**
 * The JSON body parser refuses text holding U+0000 anywhere in a body, keys included
 * (http/json-body.ts): stated on every plain string of a request body (one with no pattern,
 * format, enum or const of its own, which state it themselves) and on every object's keys.
 */
export function withNulRefused(schema: JsonSchema): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (typeof node !== "object" || node === null) return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)])) as JsonSchema;
    if (copy.type === "string" && !["pattern", "format", "enum", "const"].some((key) => key in copy)) copy.pattern = "^[^\\u0000]*$";
    if (copy.type === "object" && "additionalProperties" in copy && copy.additionalProperties !== false && !copy.propertyNames) copy.propertyNames = { pattern: "^[^\\u0000]*$" };
    return copy;
  };
  return visit(schema) as JsonSchema;
}
