import { Suspense } from "react";
import { NavLink, Outlet } from "react-router";
import { useLogout, useSession, useSessionSync } from "./api/session";
import { LoginPage } from "./pages/LoginPage";
import { SetupPage } from "./pages/SetupPage";

/** The frame of every page; until someone is logged in (or the first account exists), the only page is the one that gets them there. */
export function Layout() {
  const session = useSession();
  const logout = useLogout();
  useSessionSync();

  let content;
  // A session check that fails after one worked (the network blinked, the server restarts) keeps the
  // page as it is, with a line saying so: wiping it would lose what it holds (the dashboard's chart).
  const unreachable = session.isError ? (
    <p role="alert" className="error" data-testid="server-unreachable">
      The server did not answer: {session.error.message}
      {session.data ? " Trying again; what is shown may be out of date." : ""}
    </p>
  ) : null;
  if (session.isPending) content = <p className="muted">Loading…</p>;
  else if (!session.data) content = unreachable;
  else if (session.data.setupRequired) content = <SetupPage />;
  else if (!session.data.authenticated) content = <LoginPage />;
  else
    content = (
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Outlet />
      </Suspense>
    );

  const user = session.data?.authenticated ? session.data.user : null;
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">NzbDav</span>
        {user && (
          <>
            <nav aria-label="Main" className="h-scroll">
              <NavLink to="/" end>
                Dashboard
              </NavLink>
              <NavLink to="/queue">Queue</NavLink>
              <NavLink to="/history">History</NavLink>
              <NavLink to="/files">Files</NavLink>
              <NavLink to="/health">Health</NavLink>
              <NavLink to="/traffic">Traffic</NavLink>
              <NavLink to="/logs">Logs</NavLink>
              <NavLink to="/status">Status</NavLink>
              <NavLink to="/settings">Settings</NavLink>
              <NavLink to="/account">Account</NavLink>
            </nav>
            <span className="spacer" />
            <span className="muted">{user}</span>
            <button type="button" className="link" onClick={() => logout.mutate()} disabled={logout.isPending}>
              Log out
            </button>
          </>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {session.data && unreachable}
        {content}
      </main>
    </div>
  );
}
