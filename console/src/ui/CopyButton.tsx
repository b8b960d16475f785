import { useState } from "react";

/** Copies `text` to the clipboard and says so; where the clipboard is refused, says to copy it by hand. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "refused">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("refused");
    }
  };
  return (
    <>
      <button type="button" onClick={copy}>
        {label}
      </button>
      <span role="status" className="hint">
        {state === "copied" ? "Copied." : state === "refused" ? "The browser refused the clipboard: select the text and copy it." : ""}
      </span>
    </>
  );
}
