import { useState, type FormEvent } from "react";
import { ApiError } from "../api/client";
import { useNow } from "../lib/useNow";
import { useLogin, useSignedOut } from "../api/session";
import { Field } from "../components/Field";

export function LoginPage() {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const login = useLogin();
  const signedOut = useSignedOut();

  // After too many attempts the server says how long to wait; the page counts it down.
  const [blockedUntil, setBlockedUntil] = useState<number | null>(null);
  const now = useNow(1_000);
  const waitSeconds = blockedUntil === null ? 0 : Math.max(0, Math.ceil((blockedUntil - now) / 1000));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (waitSeconds > 0) return;
    login.mutate(
      { user: user.trim(), password },
      {
        onError: (error) => {
          if (error instanceof ApiError && error.status === 429) setBlockedUntil(Date.now() + (error.retryAfterSeconds ?? 60) * 1000);
        },
      },
    );
  }
  const limited = login.error instanceof ApiError && login.error.status === 429;

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
        {login.error && !limited && (
          <p role="alert" className="error">
            {login.error.message}
          </p>
        )}
        {limited && (
          <p role="alert" className="error" data-testid="login-wait">
            {waitSeconds > 0
              ? `Too many attempts from this address: try again in ${waitSeconds} s.`
              : "You can try again now."}
          </p>
        )}
        <button type="submit" disabled={login.isPending || waitSeconds > 0}>
          {login.isPending ? "Logging in…" : "Log in"}
        </button>
      </form>
    </section>
  );
}
