import { useEffect, useRef, type ReactNode } from "react";

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Disables the confirm button, e.g. until the person typed what the dialog asks for. */
  confirmDisabled?: boolean;
  busy?: boolean;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal confirmation on the native <dialog>: the browser keeps focus inside it, Escape
 * cancels, and focus returns to what opened it when it closes.
 */
export function ConfirmDialog({ title, children, confirmLabel, confirmDisabled, busy, danger, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className={danger ? "danger" : "primary"} disabled={confirmDisabled || busy} onClick={onConfirm}>
          {busy ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
