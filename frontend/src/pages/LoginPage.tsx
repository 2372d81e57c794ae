import { useState, type FormEvent } from "react";
import { useLogin, useSignedOut } from "../api/session";
import { Field } from "../components/Field";

export function LoginPage() {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const login = useLogin();
  const signedOut = useSignedOut();

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ user: user.trim(), password });
  }

  return (
    <section className="card narrow" aria-labelledby="login-title">
      <h1 id="login-title">Log in to NzbDav</h1>
      {signedOut && (
        <p role="status" className="notice" data-testid="signed-out">
          You were signed out. Log in again to go back to this page.
        </p>
      )}
      <form onSubmit={submit}>
        <Field label="User name" value={user} onChange={(e) => setUser(e.target.value)} autoComplete="username" required autoFocus />
        <Field label="Password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
        {login.error && (
          <p role="alert" className="error">
            {login.error.message}
          </p>
        )}
        <button type="submit" disabled={login.isPending}>
          {login.isPending ? "Logging in…" : "Log in"}
        </button>
      </form>
    </section>
  );
}
