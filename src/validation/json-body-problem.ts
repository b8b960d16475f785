import { fieldPath } from "./parse-input";

/** How many levels of arrays and objects a JSON body may nest: far past any body the API takes. */
export const MAX_JSON_DEPTH = 64;

export interface JsonBodyProblem {
  /** Where it is, as `a.b[2]` (empty for the body itself). */
  field: string;
  reason: string;
}

/** A value met on the walk, with what it takes to name its path should it be the problem. */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: string | number;
  depth: number;
  keyHoldsNul: boolean;
}

/**
 * The first place, in document order, where a parsed body nests deeper than MAX_JSON_DEPTH or
 * (when `lookForNul`) a string or object key holds U+0000; null when there is none. Walked with
 * a stack of its own, not recursion: a body 200,000 arrays deep overflowed the call stack (a 500).
 */
export function jsonBodyProblem(body: unknown, lookForNul: boolean): JsonBodyProblem | null {
  const stack: Visit[] = [{ value: body, parent: null, key: "", depth: 0, keyHoldsNul: false }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (visit.keyHoldsNul || (lookForNul && typeof value === "string" && value.includes("\0"))) {
      return { field: pathOf(visit), reason: "Text may not contain the NUL character (U+0000)." };
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth === MAX_JSON_DEPTH) return { field: pathOf(visit), reason: `JSON may nest at most ${MAX_JSON_DEPTH} levels of arrays and objects.` };
    // Pushed last first, so they are visited in document order.
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], parent: visit, key: index, depth: depth + 1, keyHoldsNul: false });
    } else {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, item] = entries[index]!;
        stack.push({ value: item, parent: visit, key, depth: depth + 1, keyHoldsNul: lookForNul && key.includes("\0") });
      }
    }
  }
  return null;
}

function pathOf(visit: Visit): string {
  const keys: Array<string | number> = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) keys.unshift(at.key);
  return fieldPath(keys);
}
