import { useEffect, useRef, type ReactNode } from "react";

/**
 * A page's h1. It names the tab, and takes focus when the page opens, so a keyboard or screen
 * reader user who followed a link starts at the new page, not on the link left behind.
 */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Aerogate console`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page-heading">
      <h1 ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}
