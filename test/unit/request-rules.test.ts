import { z } from "zod";
import { describe, expect, it } from "vitest";
import { unstatedRefinements, withNulRefused } from "../../src/rest/request-rules";

describe("request rules reach the document", () => {
  it("finds a refinement that states nothing, wherever it is", () => {
    const schema = z.strictObject({
      name: z.string().refine((name) => name !== "admin"),
      slices: z.array(z.strictObject({ code: z.string().superRefine(() => {}).optional() })),
      tags: z.record(z.string().refine(() => true), z.string()),
    });
    expect(unstatedRefinements(schema, "body")).toEqual(["body.name", "body.slices[].code", "body.tags{key}"]);
  });

  it("takes a refinement with JSON Schema keywords, or words under x-rule, as stated", () => {
    const schema = z
      .strictObject({
        name: z.string().refine((name) => name !== "admin").meta({ not: { const: "admin" } }),
        pair: z.array(z.string()).refine(() => true).meta({ "x-rule": "the two differ" }),
      })
      .refine((body) => Object.keys(body).length > 0)
      .meta({ minProperties: 1 });
    expect(unstatedRefinements(schema, "body")).toEqual([]);
  });

  it("a description is not a statement", () => {
    expect(unstatedRefinements(z.string().refine(() => true).meta({ description: "not admin" }), "query.name")).toEqual(["query.name"]);
  });

  it("states the body parser's U+0000 rule on plain strings and free keys only", () => {
    expect(
      withNulRefused({
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string", pattern: "^x$" }, c: { type: "string", enum: ["x"] }, d: { type: "object", additionalProperties: { type: "string" } } },
        additionalProperties: false,
      }),
    ).toEqual({
      type: "object",
      properties: {
        a: { type: "string", pattern: "^[^\\u0000]*$" },
        b: { type: "string", pattern: "^x$" },
        c: { type: "string", enum: ["x"] },
        d: { type: "object", additionalProperties: { type: "string", pattern: "^[^\\u0000]*$" }, propertyNames: { pattern: "^[^\\u0000]*$" } },
      },
      additionalProperties: false,
    });
  });
});
