interface PagerProps {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious(): void;
  onNext(): void;
  /** e.g. "orders 26–50 of 10,000" */
  summary: string;
}

/** Previous/next paging over a cursor connection: only one page is ever loaded. */
export function Pager({ hasPrevious, hasNext, onPrevious, onNext, summary }: PagerProps) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={onPrevious} disabled={!hasPrevious}>
        ← Newer
      </button>
      <span aria-live="polite">{summary}</span>
      <button type="button" onClick={onNext} disabled={!hasNext}>
        Older →
      </button>
    </nav>
  );
}
