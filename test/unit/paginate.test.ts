import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error";
import { CursorCodec } from "../../src/pagination/cursor";
import { MAX_PAGE_SIZE, pageSize, paginate, type KeysetQuery, type Page } from "../../src/pagination/paginate";

/**
 * Keyset pagination (docs/rest-api.md#pagination) over an in-memory table that evaluates the `where`, `orderBy`
 * and `take` paginate() hands to Prisma, so the properties hold for any data, ties included.
 */

interface Row {
  createdAt: Date;
  id: string;
}

const cursors = new CursorCodec("unit-secret");

/** A tiny evaluator for the Prisma `where` shapes a keyset query uses: AND, OR, equality, lt, gt. */
function matches(row: Row, where: object): boolean {
  return Object.entries(where).every(([key, condition]) => {
    if (key === "AND") return (condition as object[]).every((part) => matches(row, part));
    if (key === "OR") return (condition as object[]).some((part) => matches(row, part));
    const value = comparable(row[key as keyof Row]);
    if (condition !== null && typeof condition === "object" && !(condition instanceof Date)) {
      return Object.entries(condition).every(([op, operand]) => {
        if (op === "lt") return value < comparable(operand);
        if (op === "gt") return value > comparable(operand);
        throw new Error(`operator ${op} not modelled`);
      });
    }
    return value === comparable(condition);
  });
}

const comparable = (value: unknown) => (value instanceof Date ? value.getTime() : (value as string | number));

function order(rows: Row[], orderBy: KeysetQuery["orderBy"]): Row[] {
  return [...rows].sort((a, b) => {
    for (const clause of orderBy) {
      const [field, direction] = Object.entries(clause)[0] as [keyof Row, "asc" | "desc"];
      const [x, y] = [comparable(a[field]), comparable(b[field])];
      if (x !== y) return (x < y ? -1 : 1) * (direction === "asc" ? 1 : -1);
    }
    return 0;
  });
}

/** A table paginate() can read, and the queries it ran. */
function table(rows: Row[]) {
  return {
    rows,
    page(request: { limit: number; cursor?: string; before?: string }, list = "rows"): Promise<Page<Row>> {
      return paginate({
        list,
        request,
        cursors,
        count: async () => rows.length,
        fetch: async (query) => order(rows.filter((row) => matches(row, query.where)), query.orderBy).slice(0, query.take),
      });
    },
  };
}

const newestFirst = (rows: Row[]) => order(rows, [{ createdAt: "desc" }, { id: "desc" }]);

/** Follows next (or prev) cursors until null, calling `between` before each further page. */
async function walk(data: ReturnType<typeof table>, first: Page<Row>, way: "nextCursor" | "prevCursor", between?: () => void) {
  const pages = [first];
  for (let cursor = first[way]; cursor !== null; cursor = pages.at(-1)![way]) {
    between?.();
    pages.push(await data.page({ limit: first.limit, cursor }));
  }
  return pages;
}

/** Rows with few distinct timestamps, so equal createdAt values (ties broken by id) are common. */
const rowsArbitrary = fc.uniqueArray(fc.record({ createdAt: fc.integer({ min: 0, max: 5 }), id: fc.stringMatching(/^[0-9a-z]{1,6}$/) }), {
  selector: (row) => row.id,
  maxLength: 40,
}).map((rows) => rows.map(({ createdAt, id }) => ({ createdAt: new Date(1_700_000_000_000 + createdAt), id })));

const limitArbitrary = fc.integer({ min: 1, max: 12 });

describe("paginate", () => {
  it("walks forward through every row exactly once, newest first, with cursors null only at the ends", async () => {
    await fc.assert(
      fc.asyncProperty(rowsArbitrary, limitArbitrary, async (rows, limit) => {
        const data = table(rows);
        const pages = await walk(data, await data.page({ limit }), "nextCursor");
        expect(pages.flatMap((page) => page.items)).toEqual(newestFirst(rows));
        for (const [index, page] of pages.entries()) {
          const last = index === pages.length - 1;
          expect(page.total).toBe(rows.length);
          expect(page.items.length).toBe(last ? rows.length - limit * index : limit);
          expect(page.hasMore).toBe(!last);
          expect(page.nextCursor === null).toBe(last);
          expect(page.prevCursor === null).toBe(index === 0);
        }
      }),
    );
  });

  it("walks back from the last page through the same pages", async () => {
    await fc.assert(
      fc.asyncProperty(rowsArbitrary, limitArbitrary, async (rows, limit) => {
        const data = table(rows);
        const forward = await walk(data, await data.page({ limit }), "nextCursor");
        const backward = await walk(data, forward.at(-1)!, "prevCursor");
        expect(backward.map((page) => page.items)).toEqual(forward.map((page) => page.items).reverse());
        expect(backward.at(-1)!.prevCursor).toBeNull();
      }),
    );
  });

  it("yields exactly the original rows when newer rows are inserted between pages", async () => {
    await fc.assert(
      fc.asyncProperty(rowsArbitrary, limitArbitrary, async (rows, limit) => {
        const data = table([...rows]);
        const expected = newestFirst(rows);
        let inserted = 0;
        const insert = () => {
          inserted++;
          data.rows.push({ createdAt: new Date(1_800_000_000_000 + inserted), id: `new${inserted}` });
        };
        const pages = await walk(data, await data.page({ limit }), "nextCursor", insert);
        expect(pages.flatMap((page) => page.items)).toEqual(expected);
      }),
    );
  });

  it("pages back towards newer rows with `before` (GraphQL)", async () => {
    const rows = Array.from({ length: 9 }, (_, i) => ({ createdAt: new Date(1_700_000_000_000 + i), id: `r${i}` }));
    const data = table(rows);
    const forward = await walk(data, await data.page({ limit: 3 }), "nextCursor");
    const before = await data.page({ limit: 3, before: forward[2]!.prevCursor! });
    expect(before.items).toEqual(forward[1]!.items);
    expect(before.hasPrevious).toBe(true);
  });

  it("serves an empty list as one page with no cursors", async () => {
    const page = await table([]).page({ limit: 5 });
    expect(page).toMatchObject({ items: [], total: 0, limit: 5, hasMore: false, hasPrevious: false, nextCursor: null, prevCursor: null });
  });

  it("refuses a cursor from another list", async () => {
    const data = table(Array.from({ length: 4 }, (_, i) => ({ createdAt: new Date(i), id: `r${i}` })));
    const cursor = (await data.page({ limit: 2 }, "keys:ten_a")).nextCursor!;
    await expect(data.page({ limit: 2, cursor }, "keys:ten_b")).rejects.toMatchObject({ code: "INVALID_CURSOR" });
  });
});

describe("pageSize", () => {
  it("uses the fallback when no limit is given", () => {
    expect(pageSize(undefined, 20)).toBe(20);
    expect(pageSize(undefined, 25)).toBe(25);
  });

  it("accepts every whole number from 1 to 100", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_PAGE_SIZE }), (limit) => {
        expect(pageSize(limit, 20)).toBe(limit);
      }),
    );
  });

  it.each([0, -1, 101, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses %s with LIMIT_OUT_OF_RANGE", (limit) => {
    let thrown: unknown;
    try {
      pageSize(limit, 20);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: "LIMIT_OUT_OF_RANGE", status: 400, details: { field: "limit" } });
  });
});
