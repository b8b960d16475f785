import { useState, type FormEvent } from "react";
import { Field } from "../ui/Field";

interface SignInPageProps {
  /** Why the last key was not accepted, if it was not. */
  refusal: string | null;
  onSignIn(key: string): void;
}

/** Asks for an API key: the owner's, or a tenant's. Nothing is sent before one is entered. */
export function SignInPage({ refusal, onSignIn }: SignInPageProps) {
  const [key, setKey] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) onSignIn(key.trim());
  };
  return (
    <main id="content" className="sign-in">
      <h1>Aerogate console</h1>
      <p>Sign in with an API key. The console can do exactly what the key may do, and nothing more.</p>
      <form onSubmit={submit} className="card">
        <Field label="API key" error={refusal} hint="An owner key (sk_owner_…) or a tenant key. It stays in this tab and is forgotten when the tab closes.">
          <input name="apiKey" type="password" autoComplete="off" spellCheck={false} required value={key} onChange={(event) => setKey(event.target.value)} />
        </Field>
        <button type="submit" className="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}
