import { useSearchParams } from "wouter";

/** A connection's page information, as every list query asks for it. */
export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

/**
 * The page of a list the URL names (`after` or `before` a cursor), so a page can be reloaded or
 * shared, and the way to move to the next or previous one. Only that page is ever fetched.
 */
export function useCursorPage(size: number) {
  const [params, setParams] = useSearchParams();
  const after = params.get("after");
  const before = params.get("before");
  const variables = before ? { last: size, before } : { first: size, after };
  const moveTo = (cursor: string | null | undefined, direction: "after" | "before") =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.delete("after");
      next.delete("before");
      if (cursor) next.set(direction, cursor);
      return next;
    });
  return {
    variables,
    next: (pageInfo: PageInfo) => moveTo(pageInfo.endCursor, "after"),
    previous: (pageInfo: PageInfo) => moveTo(pageInfo.startCursor, "before"),
  };
}

export type CursorPage = ReturnType<typeof useCursorPage>;

/** The URL's filters (every other search parameter), and a way to change them that starts again at the first page. */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const [params, setParams] = useSearchParams();
  const values = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ""])) as Record<Name, string>;
  const apply = (next: Partial<Record<Name, string>>) =>
    setParams(() => {
      const updated = new URLSearchParams();
      for (const name of names) {
        const value = (next[name] ?? "").trim();
        if (value) updated.set(name, value);
      }
      return updated;
    });
  return { values, apply };
}
