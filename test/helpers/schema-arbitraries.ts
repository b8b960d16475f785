import fc from "fast-check";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Requests generated from /openapi.json itself: fast-check arbitraries built from each
 * operation's JSON Schemas (path, query and header parameters, the body), every value checked
 * valid with ajv against the document (a generator that cannot honour a keyword, a lookbehind in
 * a pattern, an `if`/`then`, draws until ajv agrees), and mutations that make one value of a
 * valid request invalid by the document. The document says what is valid: nothing here knows a
 * route.
 */

type Schema = Record<string, any>;

/** One operation as the document describes its request. */
export interface DescribedOperation {
  operationId: string;
  method: string;
  /** `/v1/tenants/{id}` */
  path: string;
  pathParams: string[];
  /** Query parameters by name; an exploded object parameter (`style: form`) is the one named `parameters`. */
  query: Array<{ name: string; required: boolean; schema: Schema; exploded: boolean }>;
  idempotencyKey: { required: boolean; schema: Schema } | null;
  body: Schema | null;
}

/** A request as values: the query decoded (numbers, lists), the body as JSON. */
export interface RequestValues {
  query: Record<string, unknown>;
  idempotencyKey?: string;
  body?: unknown;
}

const DOCUMENT_ID = "openapi.json";

export class DocumentRequests {
  readonly operations: DescribedOperation[];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<Schema, ValidateFunction>();

  constructor(private readonly document: any) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.operations = Object.entries(document.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([method, operation]: [string, any]) => {
        const parameters: any[] = operation.parameters ?? [];
        const header = parameters.find((parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key");
        return {
          operationId: operation.operationId,
          method: method.toUpperCase(),
          path,
          pathParams: parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name),
          query: parameters.filter((parameter) => parameter.in === "query").map((parameter) => ({ name: parameter.name, required: parameter.required ?? false, schema: parameter.schema, exploded: parameter.style === "form" && parameter.schema.type === "object" })),
          idempotencyKey: header ? { required: header.required, schema: header.schema } : null,
          body: operation.requestBody?.content["application/json"].schema ?? null,
        };
      }),
    );
  }

  /** Whether `value` is valid by `schema` (a part of the document). */
  valid(schema: Schema, value: unknown): boolean {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)));
      this.validators.set(schema, validate);
    }
    return validate(value) as boolean;
  }

  /** Whether the whole request is valid by the document. */
  validRequest(operation: DescribedOperation, request: RequestValues): boolean {
    for (const parameter of operation.query) {
      const value = parameter.exploded ? request.query : request.query[parameter.name];
      if (parameter.exploded ? false : value === undefined) {
        if (parameter.required) return false;
        continue;
      }
      if (!this.valid(parameter.schema, value)) return false;
    }
    if (operation.idempotencyKey) {
      if (request.idempotencyKey === undefined) {
        if (operation.idempotencyKey.required) return false;
      } else if (!this.valid(operation.idempotencyKey.schema, request.idempotencyKey)) return false;
    }
    return operation.body === null || this.valid(operation.body, request.body);
  }

  /** Valid requests of the operation: optional parts sometimes left out. */
  requests(operation: DescribedOperation): fc.Arbitrary<RequestValues> {
    const exploded = operation.query.find((parameter) => parameter.exploded);
    const query = exploded
      ? this.value(exploded.schema)
      : fc.record(Object.fromEntries(operation.query.map((parameter) => [parameter.name, this.value(parameter.schema)])), {
          requiredKeys: operation.query.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        });
    const key = operation.idempotencyKey;
    return fc
      .record({
        query,
        ...(key ? { idempotencyKey: key.required ? this.headerValue(key.schema) : fc.option(this.headerValue(key.schema), { nil: undefined }) } : {}),
        ...(operation.body ? { body: this.value(operation.body) } : {}),
      })
      .map((request) => withoutUndefined(request) as unknown as RequestValues);
  }

  /** A header value: HTTP trims whitespace around a header value, so a value holding some there cannot be sent. */
  private headerValue(schema: Schema): fc.Arbitrary<string> {
    return fc.oneof({ arbitrary: fc.uuid(), weight: 3 }, { arbitrary: this.value(schema) as fc.Arbitrary<string>, weight: 1 }).filter((value) => value === value.trim());
  }

  /** Values valid by `schema`. */
  value(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    return this.draw(resolved, depth).filter((value) => this.valid(schema, value));
  }

  private resolve(schema: Schema): Schema {
    let resolved = schema;
    while (resolved.$ref) resolved = { ...this.document.components.schemas[resolved.$ref.split("/").pop()], ...withoutKey(resolved, "$ref") };
    if (resolved.allOf) resolved = resolved.allOf.reduce((merged: Schema, part: Schema) => merge(merged, this.resolve(part)), withoutKey(resolved, "allOf"));
    return resolved;
  }

  private draw(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    if ("const" in schema) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    const branches: Schema[] | undefined = schema.oneOf ?? schema.anyOf;
    if (branches) {
      const base = withoutKey(withoutKey(schema, "oneOf"), "anyOf");
      return fc.oneof(...branches.map((branch) => this.draw(merge(base, this.resolve(branch)), depth)));
    }
    if (schema.if) {
      // Either the condition and its `then`, or its `else` (whose values the final check keeps from meeting the condition).
      const base = withoutKey(withoutKey(withoutKey(schema, "if"), "then"), "else");
      return fc.oneof(this.draw(merge(merge(base, this.resolve(schema.if)), this.resolve(schema.then ?? {})), depth), this.draw(merge(base, this.resolve(schema.else ?? {})), depth));
    }
    const type = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties || schema.additionalProperties ? "object" : "string")];
    return fc.oneof(...type.map((one: string) => this.drawType(one, schema, depth)));
  }

  private drawType(type: string, schema: Schema, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number": {
        const min = schema.minimum ?? (schema.exclusiveMinimum === undefined ? -1_000 : schema.exclusiveMinimum + 1);
        const max = schema.maximum ?? (schema.exclusiveMaximum === undefined ? Math.max(min, 0) + 1_000 : schema.exclusiveMaximum - 1);
        const edges = fc.constantFrom(min, max);
        return fc.oneof({ arbitrary: fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) }), weight: 4 }, { arbitrary: edges, weight: 1 });
      }
      case "array": {
        const minLength = schema.minItems ?? 0;
        const maxLength = Math.min(schema.maxItems ?? 3, minLength + 3);
        const items = depth > 4 ? fc.constant(null) : this.value(schema.items ?? {}, depth + 1);
        return schema.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) }) : fc.array(items, { minLength, maxLength });
      }
      case "object":
        return this.drawObject(schema, depth);
      default:
        return this.drawString(schema);
    }
  }

  private drawObject(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = schema.properties ?? {};
    const required: string[] = schema.required ?? [];
    const known = fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, this.value(property, depth + 1)])), { requiredKeys: required.filter((name) => name in properties) });
    const free = schema.additionalProperties;
    if (!free || free === true || depth > 4) return known;
    const keys = this.value({ type: "string", maxLength: 12, ...(schema.propertyNames ?? {}) }) as fc.Arbitrary<string>;
    const extra = fc.dictionary(keys, this.value(free, depth + 1), { minKeys: schema.minProperties ?? 0, maxKeys: Math.min(schema.maxProperties ?? 3, 3) });
    return fc.tuple(known, extra).map(([fixed, more]) => ({ ...more, ...fixed }));
  }

  /**
   * Strings: a format's own generator, else one matching the pattern (fast-check reads most
   * regular expressions; lookarounds it cannot, and those fall back to plain text, checked). A
   * length is kept in UTF-16 code units, as zod counts (docs/request-rules.md#what-the-document-cannot-know).
   */
  private drawString(schema: Schema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? minLength + 40;
    const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
    const character = fc.oneof({ arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }), weight: 3 }, { arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }), weight: 1 });
    const plain = fc.string({ unit: character, minLength, maxLength: Math.min(maxLength, minLength + 40) }).filter(fits);
    switch (schema.format) {
      case "date":
        return fc.date({ min: new Date("1900-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
      case "date-time":
        return fc
          .tuple(fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }), fc.constantFrom("Z", "+00:00", "+05:30", "-08:00"))
          .map(([date, offset]) => date.toISOString().replace("Z", offset));
      case "email":
        return fc.oneof(fc.emailAddress(), fc.constantFrom("ops@agency.example", "a.b+c@travel.example")).filter(fits);
      case "uri":
        return fc.oneof(fc.webUrl({ validSchemes: ["http", "https"], withQueryParameters: true, withFragments: true }), fc.constantFrom("https://hooks.example/aerogate", "http://127.0.0.1:9/x")).filter(fits);
    }
    if (schema.pattern) {
      try {
        return fc.oneof({ arbitrary: fc.stringMatching(new RegExp(schema.pattern, "u")).filter(fits), weight: 4 }, { arbitrary: plain, weight: 1 });
      } catch {
        return plain;
      }
    }
    return plain;
  }

  /**
   * Requests valid but for one value: a wrong type, out of range, too long or short, off its
   * pattern, not in its enum, a required field dropped or an unknown one added, both or neither
   * branch of a `oneOf`; a missing required parameter; a malformed Idempotency-Key. Each one is
   * checked invalid by the document.
   */
  invalidRequests(operation: DescribedOperation): fc.Arbitrary<RequestValues> | null {
    const targets: Array<fc.Arbitrary<(request: RequestValues) => RequestValues>> = [];
    if (operation.body) targets.push(this.broken(operation.body).map((change) => (request: RequestValues) => ({ ...request, body: change(request.body) })));
    const exploded = operation.query.find((parameter) => parameter.exploded);
    if (exploded) targets.push(this.broken(exploded.schema, true).map((change) => (request: RequestValues) => ({ ...request, query: change(request.query) as Record<string, unknown> })));
    for (const parameter of operation.query.filter((one) => !one.exploded)) {
      targets.push(
        fc.constantFrom<unknown>(undefined, ...queryTextCandidates(this.resolve(parameter.schema))).map(
          (value) => (request: RequestValues) => ({ ...request, query: withoutUndefined({ ...request.query, [parameter.name]: value }) }),
        ),
      );
    }
    if (operation.idempotencyKey) {
      targets.push(fc.constantFrom("", "x".repeat(256), "clé-ç", "tab\there").map((key) => (request: RequestValues) => ({ ...request, idempotencyKey: key })));
    }
    if (targets.length === 0) return null;
    return fc
      .tuple(this.requests(operation), fc.oneof(...targets))
      .map(([request, change]) => change(request))
      .filter((request) => !this.validRequest(operation, request));
  }

  /** Changes that break a value of `schema` somewhere inside it (at it, or in one of its properties or items). */
  private broken(schema: Schema, queryText = false, depth = 0): fc.Arbitrary<(value: unknown) => unknown> {
    const resolved = this.resolve(schema);
    // A query string is an object of texts: broken in its values, never replaced as a whole.
    const inside: Array<fc.Arbitrary<(value: unknown) => unknown>> = queryText && depth === 0 ? [] : [fc.constantFrom(...(queryText ? queryTextCandidates(resolved) : valueCandidates(resolved))).map((replacement) => () => replacement)];
    const properties: Record<string, Schema> = resolved.properties ?? {};
    if (depth < 4 && Object.keys(properties).length > 0) {
      const names = Object.keys(properties);
      inside.push(
        fc.constantFrom(...names).chain((name) =>
          this.broken(properties[name]!, queryText, depth + 1).map((change) => (value: unknown) => (isObject(value) ? { ...value, [name]: change(value[name]) } : value)),
        ),
      );
      inside.push(fc.constantFrom(...names).map((name) => (value: unknown) => (isObject(value) ? withoutKey(value, name) : value)));
      if (resolved.additionalProperties === false) inside.push(fc.constant((value: unknown) => (isObject(value) ? { ...value, unexpected_field: "x" } : value)));
      const branches: Schema[] = resolved.oneOf ?? [];
      const branchKeys = branches.flatMap((branch) => branch.required ?? []);
      if (branchKeys.length > 1) inside.push(fc.constant((value: unknown) => (isObject(value) ? Object.fromEntries(Object.entries(value).filter(([key]) => !branchKeys.includes(key))) : value)));
    }
    if (depth < 4 && resolved.items && !queryText) {
      inside.push(this.broken(resolved.items, queryText, depth + 1).map((change) => (value: unknown) => (Array.isArray(value) && value.length > 0 ? [change(value[0]), ...value.slice(1)] : value)));
    }
    return fc.oneof(...inside);
  }
}

/** Values that break a JSON value of `schema`: each kept only if the whole request ends up invalid. */
function valueCandidates(schema: Schema): unknown[] {
  const candidates: unknown[] = [12345, "text", true, null, [], {}, 1.5, -1];
  if (typeof schema.maxLength === "number") candidates.push("x".repeat(schema.maxLength + 1));
  if (schema.minLength) candidates.push("");
  if (schema.pattern || schema.format || schema.enum) candidates.push("not-a-valid-value", " padded ", "\u202Ehidden", "nul\u0000text", "2026-02-30");
  if (typeof schema.minimum === "number") candidates.push(schema.minimum - 1);
  if (typeof schema.maximum === "number") candidates.push(schema.maximum + 1);
  if (typeof schema.minItems === "number" && schema.minItems > 0) candidates.push([]);
  if (typeof schema.maxItems === "number") candidates.push(Array.from({ length: schema.maxItems + 1 }, () => "x"));
  return candidates;
}

/** The same in a query string, where every value is text. */
function queryTextCandidates(schema: Schema): unknown[] {
  const candidates: unknown[] = ["", "not-a-valid-value", "1.5", "-1", "abc", "1e1", "x".repeat(300)];
  if (typeof schema.minimum === "number") candidates.push(schema.minimum - 1);
  if (typeof schema.maximum === "number") candidates.push(schema.maximum + 1);
  return candidates;
}

function merge(base: Schema, extra: Schema): Schema {
  const merged: Schema = { ...base, ...extra };
  if (base.properties && extra.properties) {
    merged.properties = { ...base.properties };
    for (const [name, property] of Object.entries(extra.properties as Record<string, Schema>)) merged.properties[name] = merged.properties[name] ? merge(merged.properties[name], property) : property;
  }
  if (base.required || extra.required) merged.required = [...new Set([...(base.required ?? []), ...(extra.required ?? [])])];
  return merged;
}

function withoutKey<T extends Record<string, unknown>>(object: T, key: string): T {
  const { [key]: _dropped, ...rest } = object;
  return rest as T;
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The query string of decoded values: lists repeat their parameter, everything else is its text. */
export function queryString(query: Record<string, unknown>): string {
  const pairs = Object.entries(query).flatMap(([name, value]): Array<[string, string]> =>
    Array.isArray(value) ? value.map((item) => [name, String(item)]) : [[name, typeof value === "object" ? JSON.stringify(value) : String(value)]],
  );
  return pairs.length === 0 ? "" : `?${new URLSearchParams(pairs).toString()}`;
}
