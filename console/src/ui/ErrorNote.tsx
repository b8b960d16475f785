import type { CombinedError } from "urql";
import { apiErrors } from "../api/errors";

interface ErrorNoteProps {
  error: CombinedError | undefined;
  /** Fields whose message the form shows beside them: errors naming one are not repeated here. */
  fields?: readonly string[] | ((field: string) => boolean);
}

/** A failed operation's errors as the API worded them, announced to screen readers. */
export function ErrorNote({ error, fields = [] }: ErrorNoteProps) {
  const shownBeside = typeof fields === "function" ? fields : (field: string) => fields.includes(field);
  const shown = apiErrors(error).filter((item) => item.field === null || !shownBeside(item.field));
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
