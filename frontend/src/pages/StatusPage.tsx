import { useQuery } from "@tanstack/react-query";
import { getJson } from "../api/client";
import { apiPaths } from "../api/paths";
import { ago, milliseconds } from "../lib/format";
import { useNow } from "../lib/useNow";

interface Health {
  status: string;
}

interface Checked {
  health: Health;
  roundTripMs: number;
  at: number;
}

async function checkHealth(signal: AbortSignal): Promise<Checked> {
  const started = performance.now();
  const health = await getJson<Health>(apiPaths.serverHealth, signal);
  return { health, roundTripMs: performance.now() - started, at: Date.now() };
}

/** Whether the server answers, and how fast, checked every five seconds. */
export function StatusPage() {
  const query = useQuery({ queryKey: ["health"], queryFn: ({ signal }) => checkHealth(signal), refetchInterval: 5_000 });
  const now = useNow(1_000);

  return (
    <section className="card" aria-labelledby="status-title">
      <h1 id="status-title">Server status</h1>
      {query.isPending && <p>Checking…</p>}
      {query.isError && (
        <p role="alert" className="error">
          The server did not answer: {query.error.message}
        </p>
      )}
      {query.data && (
        <dl className="facts">
          <dt>Health</dt>
          <dd data-testid="health">{query.data.health.status}</dd>
          <dt>Round trip</dt>
          <dd>{milliseconds(query.data.roundTripMs)}</dd>
          <dt>Checked</dt>
          <dd>{ago(query.data.at, now)}</dd>
        </dl>
      )}
    </section>
  );
}
