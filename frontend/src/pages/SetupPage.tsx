import { useState, type FormEvent } from "react";
import { useSetup } from "../api/session";
import { Field } from "../components/Field";
import { credentialsProblem, normalizeSetupCode } from "../lib/validation";

/** First run: nobody may create the administrator without the code the server logged. */
export function SetupPage() {
  const [code, setCode] = useState("");
  const [user, setUser] = useState("admin");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const setup = useSetup();

  function submit(event: FormEvent) {
    event.preventDefault();
    const local = code.trim().length === 0 ? "Enter the setup code from the server's log." : credentialsProblem(user, password, confirmation);
    setProblem(local);
    if (!local) setup.mutate({ code: normalizeSetupCode(code), user: user.trim(), password });
  }

  const shown = problem ?? (setup.error ? setup.error.message : null);
  return (
    <section className="card narrow" aria-labelledby="setup-title">
      <h1 id="setup-title">Create the administrator</h1>
      <p className="muted">
        This server has no account yet. Its log shows a one-time <strong>setup code</strong> (the line “No web UI
        account exists yet…”); enter it to prove you run the server.
      </p>
      <form onSubmit={submit} noValidate>
        <Field label="Setup code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" spellCheck={false} required />
        <Field label="User name" value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" required />
        <Field label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required />
        <Field label="Password again" type="password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="new-password" required />
        {shown && (
          <p role="alert" className="error">
            {shown}
          </p>
        )}
        <button type="submit" disabled={setup.isPending}>
          {setup.isPending ? "Creating…" : "Create account"}
        </button>
      </form>
    </section>
  );
}
