import { useEffect, useMemo, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "../api/client";
import { apiPaths } from "../api/paths";
import { currentCsrfToken } from "../api/session";
import { Moment } from "../components/Moment";

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
  startup: LogEntry[];
}

const levels = ["Verbose", "Debug", "Information", "Warning", "Error", "Fatal"];

/** "NzbDav.Server.Mount.RcloneMountService" → "RcloneMountService": the part a person recognises. */
const shortSource = (source: string | null) => (source ? source.slice(source.lastIndexOf(".") + 1) : "");

/**
 * The server's log as it is written: the newest 500 lines, refreshed every two seconds, filtered by
 * level, source and text. What the start-up warned about stays pinned above them until dismissed.
 */
export function LogsPage() {
  const [level, setLevel] = useState("Information");
  const [source, setSource] = useState("");
  const [search, setSearch] = useState("");
  const queryClient = useQueryClient();
  const logs = useQuery({
    queryKey: ["logs", level, source, search],
    queryFn: ({ signal }) => getJson<Logs>(apiPaths.logs({ level, source, search, limit: 500 }), signal),
    refetchInterval: 2_000,
    placeholderData: (previous) => previous,
  });
  const dismiss = useMutation({
    mutationFn: async (through: number) => postJson<{ startup: LogEntry[] }>(apiPaths.logsStartupDismiss, { through }, await currentCsrfToken(queryClient)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["logs"] }),
  });
  const entries = logs.data?.entries;
  // The sources of the lines shown, for the filter's suggestions.
  const sources = useMemo(() => [...new Set((entries ?? []).map((e) => shortSource(e.source)).filter(Boolean))].sort(), [entries]);
  const bottom = useRef<HTMLDivElement>(null);
  const last = logs.data?.last;
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: "end" });
  }, [last]);
  const startup = logs.data?.startup ?? [];
  const newestStartup = startup.reduce((n, e) => Math.max(n, e.sequence), 0);

  return (
    <section className="card" aria-labelledby="logs-title">
      <div className="title-row">
        <h1 id="logs-title">Logs</h1>
        <a className="button-link" href={apiPaths.logsDownload({ level, source, search })} download>
          Download
        </a>
      </div>
      {startup.length > 0 && (
        <section className="pinned" aria-labelledby="startup-title" data-testid="startup-warnings">
          <div className="title-row">
            <h2 id="startup-title">At start-up</h2>
            <button type="button" className="secondary" disabled={dismiss.isPending} onClick={() => dismiss.mutate(newestStartup)}>
              Dismiss
            </button>
          </div>
          {startup.map((e) => (
            <LogLine key={e.sequence} entry={e} />
          ))}
        </section>
      )}
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
        <label>
          Source{" "}
          <input type="search" list="log-sources" placeholder="any" value={source} onChange={(e) => setSource(e.target.value)} />
        </label>
        <datalist id="log-sources">
          {sources.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <input type="search" placeholder="Search" aria-label="Search the log" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {logs.isError && (
        <p role="alert" className="error">
          {logs.error.message}
        </p>
      )}
      {/* Focusable so the keyboard can scroll it (WCAG 2.1.1). */}
      <div className="log" role="log" aria-live="polite" aria-label="Log lines" tabIndex={0}>
        {entries?.length === 0 && <p className="muted">No line matches.</p>}
        {entries?.map((e) => (
          <LogLine key={e.sequence} entry={e} />
        ))}
        <div ref={bottom} />
      </div>
    </section>
  );
}

function LogLine({ entry: e }: { entry: LogEntry }) {
  return (
    <div className={`log-line ${e.level.toLowerCase()}`}>
      <span className="muted">
        <Moment iso={e.timestamp} seconds />
      </span>{" "}
      <span className="level">{e.level.slice(0, 3).toUpperCase()}</span>{" "}
      <span className="muted" title={e.source ?? undefined}>
        {shortSource(e.source)}
      </span>{" "}
      {e.message}
      {e.exception && <pre>{e.exception}</pre>}
    </div>
  );
}
