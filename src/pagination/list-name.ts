import { createHash } from "node:crypto";

/**
 * The name of a filtered list, for its cursors (cursor.ts): a cursor issued for one filter is
 * refused by a list with another. The filters are hashed so that a cursor stays short whatever
 * text was searched for.
 */
export function filteredListName(base: string, filters: readonly unknown[]): string {
  if (filters.every((filter) => filter === undefined)) return base;
  return `${base}:${createHash("sha256").update(JSON.stringify(filters)).digest("base64url").slice(0, 16)}`;
}
