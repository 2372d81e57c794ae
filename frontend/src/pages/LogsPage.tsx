import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { getJson } from "../api/client";
import { apiPaths } from "../api/paths";

interface LogEntry {
  sequence: number;
  timestamp: string;
  level: string;
  source: string | null;
  message: string;
  exception: string | null;
}

interface Logs {
  entries: LogEntry[];
  last: number;
}

const levels = ["Verbose", "Debug", "Information", "Warning", "Error", "Fatal"];

/** The server's log as it is written: the newest 500 lines, refreshed every two seconds, filtered by level and text. */
export function LogsPage() {
  const [level, setLevel] = useState("Information");
  const [search, setSearch] = useState("");
  const logs = useQuery({
    queryKey: ["logs", level, search],
    queryFn: ({ signal }) => getJson<Logs>(apiPaths.logs({ level, search, limit: 500 }), signal),
    refetchInterval: 2_000,
    placeholderData: (previous) => previous,
  });
  const bottom = useRef<HTMLDivElement>(null);
  const last = logs.data?.last;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [last]);

  return (
    <section className="card" aria-labelledby="logs-title">
      <div className="title-row">
        <h1 id="logs-title">Logs</h1>
        <a className="button-link" href={apiPaths.logsDownload({ level, search })} download>
          Download
        </a>
      </div>
      <div className="filters">
        <label>
          Level{" "}
          <select value={level} onChange={(e) => setLevel(e.target.value)}>
            {levels.map((l) => (
              <option key={l} value={l}>
                {l} and above
              </option>
            ))}
          </select>
        </label>
        <input type="search" placeholder="Search" aria-label="Search the log" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {logs.isError && (
        <p role="alert" className="error">
          {logs.error.message}
        </p>
      )}
      <div className="log" role="log" aria-live="polite">
        {logs.data?.entries.length === 0 && <p className="muted">No line matches.</p>}
        {logs.data?.entries.map((e) => (
          <div key={e.sequence} className={`log-line ${e.level.toLowerCase()}`}>
            <span className="muted">{new Date(e.timestamp).toLocaleTimeString()}</span> <span className="level">{e.level.slice(0, 3).toUpperCase()}</span>{" "}
            <span className="muted">{e.source}</span> {e.message}
            {e.exception && <pre>{e.exception}</pre>}
          </div>
        ))}
        <div ref={bottom} />
      </div>
    </section>
  );
}
