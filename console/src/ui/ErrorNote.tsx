import type { CombinedError } from "urql";
import { apiErrors } from "../api/errors";

/** A failed operation's errors as the API worded them, announced to screen readers. */
export function ErrorNote({ error, fields = [] }: { error: CombinedError | undefined; fields?: readonly string[] }) {
  // Errors naming a field the form shows beside it are not repeated here.
  const shown = apiErrors(error).filter((item) => item.field === null || !fields.includes(item.field));
  if (shown.length === 0) return null;
  return (
    <div className="error-note" role="alert">
      {shown.map((item, index) => (
        <p key={index}>
          {item.message} <code>{item.code}</code>
        </p>
      ))}
    </div>
  );
}
