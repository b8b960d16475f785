/**
 * Where the first text holding U+0000 is in a value (a string holding it, or an object key that
 * does), in document order, as a path for `fieldPath`; null when there is none. PostgreSQL's text
 * and jsonb cannot store the character. Walked with a stack of its own, not recursion.
 */
export function nulTextPath(value: unknown): Array<string | number> | null {
  const stack: Array<{ value: unknown; path: Array<string | number>; keyHoldsNul: boolean }> = [{ value, path: [], keyHoldsNul: false }];
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    if (at.keyHoldsNul || (typeof at.value === "string" && at.value.includes("\0"))) return at.path;
    if (typeof at.value !== "object" || at.value === null) continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(at.value) ? at.value.map((item, index) => [index, item]) : Object.entries(at.value);
    // Pushed last first, so they are visited in document order.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      stack.push({ value: item, path: [...at.path, key], keyHoldsNul: typeof key === "string" && key.includes("\0") });
    }
  }
  return null;
}
