import { CopyButton } from "../ui/CopyButton";

/** A signing secret the API showed once; the console forgets it when the person says it is stored. */
export function SecretOnce({ secret, note, onDone }: { secret: string; note: string; onDone(): void }) {
  return (
    <div className="secret" role="status">
      <p>{note} It is shown this once: store it now.</p>
      <p>
        <code className="secret-value" data-testid="webhook-secret">
          {secret}
        </code>{" "}
        <CopyButton text={secret} />
      </p>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}
