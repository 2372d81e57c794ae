import { Link, useLocation } from "react-router";

export function NotFoundPage() {
  const location = useLocation();
  return (
    <section className="card">
      <h1>Not found</h1>
      <p>
        There is no page at <code>{location.pathname}</code>. <Link to="/">Back to the dashboard</Link>.
      </p>
    </section>
  );
}
