import fc from "fast-check";

/** Generators of hostile input shared by the fuzz suites: values, bodies, raw text. */

/** A long string: a short unit repeated up to 200,000 times. */
export const hugeString = fc
  .tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 1_000, max: 200_000 }))
  .map(([unit, times]) => unit.repeat(times));

const nestedJunk = fc.letrec((tie) => ({
  junk: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie("junk"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("junk"), { maxKeys: 3 }),
  ),
})).junk;

/** Any value a JSON body can hold at a field, from plausible to absurd, short of huge. */
export const compactValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string(),
  fc.string({ unit: "grapheme" }),
  nestedJunk,
  fc.constantFrom(null, true, false, 0, -1, 1e308, "", " ", "\u0000", "null", "[]", "{}"),
);

/** Any value a JSON body can hold at a field, huge strings included. */
export const anyValue = fc.oneof({ arbitrary: compactValue, weight: 5 }, { arbitrary: hugeString, weight: 1 });

/** JSON text with a prototype-poisoning key injected at the top or inside one field. */
export function withPoisonKey(json: string, poison: string): string {
  if (json.startsWith("{") && json !== "{}") return `{${poison},${json.slice(1)}`;
  if (json === "{}") return `{${poison}}`;
  return `{${poison},"value":${json}}`;
}

export const poisonKey = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((value) => `"__proto__":${JSON.stringify(value)}`),
  fc.constant('"constructor":{"prototype":{"polluted":true}}'),
  fc.constant('"__proto__":{"isAdmin":true}'),
);

/** A body as raw text plus its content type. */
export interface RawBody {
  text: string;
  contentType: string;
}

export function json(value: unknown): RawBody {
  return { text: JSON.stringify(value), contentType: "application/json" };
}

/** Text that is mostly not JSON, under JSON and non-JSON content types. */
export const rawText: fc.Arbitrary<RawBody> = fc.record({
  text: fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("{", "}", "[1,", '{"name":', "{'name':'x'}", "NaN", "undefined", "\ufeff{}", "{} {}", '{"a":1,}')),
  contentType: fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xyz",
    "application/xml",
    "application/octet-stream",
    "application/jsonx",
  ),
});

/**
 * An object whose one field nests arrays or objects from a few levels to 200,000 deep, around
 * a number or a string holding U+0000 (a deep one once overflowed the server's stack: a 500).
 */
export const deepJson: fc.Arbitrary<RawBody> = fc
  .record({
    levels: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 100, max: 200_000 })),
    open: fc.constantFrom("[", '{"a":'),
    inner: fc.constantFrom("1", '"\\u0000"', '"text"'),
  })
  .map(({ levels, open, inner }) => ({
    text: `{"deep":${open.repeat(levels)}${inner}${(open === "[" ? "]" : "}").repeat(levels)}}`,
    contentType: "application/json",
  }));

export function describeBody(body: RawBody): string {
  return `${body.contentType} ${body.text.length > 300 ? `${body.text.slice(0, 300)}… (${body.text.length} chars)` : body.text}`;
}
