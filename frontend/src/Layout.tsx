import { NavLink, Outlet } from "react-router";

export function Layout() {
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">NzbDav</span>
        <nav>
          <NavLink to="/" end>
            Status
          </NavLink>
        </nav>
      </header>
      <main>
        <Outlet />
      </main>
    </div>
  );
}
