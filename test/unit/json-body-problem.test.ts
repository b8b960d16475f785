import { describe, expect, it } from "vitest";
import { jsonBodyProblem, MAX_JSON_DEPTH } from "../../src/validation/json-body-problem";

describe("jsonBodyProblem", () => {
  it("names a NUL inside an array of objects as the API names fields", () => {
    expect(jsonBodyProblem({ passengers: [{ given_name: "Ada" }, { given_name: "Gr\0ce" }] }, true)?.field).toBe("passengers[1].given_name");
  });

  it("names a NUL in an object key by the key", () => {
    expect(jsonBodyProblem({ metadata: { "a\0b": "x" } }, true)?.field).toBe("metadata.a\0b");
  });

  it("ignores NUL when not asked to look for it, but never the nesting bound", () => {
    expect(jsonBodyProblem({ note: "\0" }, false)).toBeNull();
    let deep: unknown = [];
    for (let level = 0; level < MAX_JSON_DEPTH; level++) deep = [deep];
    expect(jsonBodyProblem({ deep }, false)?.reason).toMatch(/at most 64 levels/);
  });

  it("finds the first problem in document order", () => {
    expect(jsonBodyProblem({ a: ["ok", "\0"], b: "\0" }, true)?.field).toBe("a[1]");
  });
});
