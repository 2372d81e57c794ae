import { useState, type FormEvent } from "react";
import { useChangePassword, useSession } from "../api/session";
import { Field } from "../components/Field";
import { credentialsProblem } from "../lib/validation";

/** The administrator's password; a change ends every other session at once. */
export function AccountPage() {
  const session = useSession();
  const change = useChangePassword();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const local = current.length === 0 ? "Enter your current password." : credentialsProblem(session.data?.user ?? "admin", password, confirmation);
    setProblem(local);
    if (!local)
      change.mutate(
        { current, new: password },
        {
          onSuccess: () => {
            setCurrent("");
            setPassword("");
            setConfirmation("");
          },
        },
      );
  }

  const shown = problem ?? (change.error ? change.error.message : null);
  return (
    <section className="card narrow" aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <p className="muted">
        Logged in as <strong>{session.data?.user}</strong>. Changing the password logs out every other browser.
      </p>
      <form onSubmit={submit} noValidate>
        <Field label="Current password" type="password" value={current} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
        <Field label="New password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
        <Field label="New password again" type="password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} autoComplete="new-password" />
        {shown && (
          <p role="alert" className="error">
            {shown}
          </p>
        )}
        {change.isSuccess && !shown && <p role="status">Password changed.</p>}
        <button type="submit" disabled={change.isPending}>
          {change.isPending ? "Saving…" : "Change password"}
        </button>
      </form>
    </section>
  );
}
