import { words } from "./format";

/** A status as a coloured label; the colour only repeats what the text says. */
export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{words(status)}</span>;
}
