import type { CursorPage, PageInfo } from "./paging";

/** A list as its query answered it: one page of it, where that page stands, and how many there are in all. */
interface PagedList {
  nodes: readonly unknown[];
  pageInfo: PageInfo;
  totalCount: number;
}

interface PagerProps {
  /** The list read; nothing is shown until it is. */
  list: PagedList | null | undefined;
  /** The page the URL names (useCursorPage), which the buttons move. */
  paging: CursorPage;
}

/** Previous/next paging over a cursor connection, with how many are shown of how many: only one page is ever loaded. */
export function Pager({ list, paging }: PagerProps) {
  if (!list) return null;
  const { pageInfo } = list;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => paging.previous(pageInfo)} disabled={!pageInfo.hasPreviousPage}>
        ← Newer
      </button>
      <span aria-live="polite">{`${list.nodes.length} shown of ${list.totalCount}`}</span>
      <button type="button" onClick={() => paging.next(pageInfo)} disabled={!pageInfo.hasNextPage}>
        Older →
      </button>
    </nav>
  );
}
