import { useId, type ReactElement, type ReactNode } from "react";
import { cloneElement } from "react";

interface FieldProps {
  label: string;
  /** The API's message about this field, shown beside it. */
  error?: string | null | undefined;
  hint?: ReactNode;
  /** One input, select or textarea; it gets the id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  className?: string;
  /** Drawn right after the control, e.g. a combobox's list of suggestions. */
  after?: ReactNode;
}

/** A labelled form control with its hint and the API's validation message beside it. */
export function Field({ label, error, hint, children, className, after }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={["field", error ? "field-invalid" : null, className].filter(Boolean).join(" ")}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {after}
      {hint ? (
        <small id={hintId} className="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={errorId} className="field-error">
          {error}
        </small>
      ) : null}
    </div>
  );
}
