import type { z } from "zod";
import type { Operation } from "../../context/operations";
import type { RequestContext } from "../../context/request-context";
import { MAX_PAGE_SIZE, type Page } from "../../pagination/paginate";
import { parseInput } from "../../validation/parse-input";
import { listQuery } from "./inputs";

/** One route of the surface: the client's method, the operation it performs, and its answer. */
export interface Call {
  ctx: RequestContext;
  body: unknown;
  query: Record<string, unknown>;
  params: Record<string, string>;
}

export interface Route {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: string;
  operation: Operation;
  status?: number;
  body?: boolean;
  handle(call: Call): Promise<unknown>;
}

export const parse = <S extends z.ZodType>(schema: S, value: unknown) => parseInput(schema, value ?? {});

/** `{ data, meta: { after, before, limit } }`: what the client's `listWithGenerator` walks. */
export function listOf<T, V>(page: Page<T>, view: (item: T) => V) {
  return { data: page.items.map(view), meta: { after: page.nextCursor, before: page.prevCursor, limit: page.limit } };
}

export function pageRequest(query: Record<string, unknown>) {
  const { limit, after, before } = parse(listQuery, query);
  return { limit: Math.min(limit ?? 50, MAX_PAGE_SIZE), cursor: after, before };
}

