import { useMemo } from "react";

/**
 * The context for a query whose lists may be empty when first read: urql's document cache
 * learns which types a query holds from its answer, so a list read empty would not be read
 * again after a mutation adds one. Naming the types makes it so.
 */
export function useListsOf(...typenames: string[]) {
  return useMemo(() => ({ additionalTypenames: typenames }), [typenames.join(" ")]);
}
