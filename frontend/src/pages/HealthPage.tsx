import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useHealth, useHealthAction, usePar2Plan, type HealthAction } from "../api/health";
import type { HealthAuditEntry, HealthFile, HealthFilter, HealthView } from "../api/types";
import { Pager } from "../components/Pager";
import { contentRoot, filesPageUrl } from "../lib/files";
import { bytes, dateTime, isoTitle, relativeTime } from "../lib/format";
import {
  auditLabel,
  auditTone,
  describeCoverage,
  describePar2,
  describePatchRanges,
  describePatches,
  describeHoles,
  describePolicy,
  describeRunningCheck,
  fileActions,
  filterCount,
  healthFilters,
  nextCheckLabel,
  parseFilter,
  repairLabel,
  stateLabel,
  par2ButtonLabel,
} from "../lib/health";
import { useNow } from "../lib/useNow";
import { usePageOf } from "../lib/usePageOf";
import { Moment } from "../components/Moment";

const pageSize = 50;
const auditShown = 50;

/**
 * The library's health: files per state (each a filter), the policy in force, every file with its
 * last and next check, the holes found and its repair, with check / repair / ignore per file; then
 * the audit log of what checks and repairs did.
 */
export function HealthPage() {
  const [params, setParams] = useSearchParams();
  const filter = parseFilter(params.get("state"));
  // A new filter starts from its first page.
  const [page, setPage] = usePageOf(filter);
  const health = useHealth({ state: filter, offset: (page - 1) * pageSize, limit: pageSize });
  const data = health.data;
  const now = useNow(5_000);

  function choose(value: HealthFilter) {
    setParams(value === "all" || value === filter ? {} : { state: value });
  }

  return (
    <div className="page health">
      <div className="title-row">
        <h1>Health</h1>
        {data && <span className="muted small">{filterCount(data.counts, "all")} files watched</span>}
      </div>
      {health.isPending && <p className="muted">Loading…</p>}
      {health.isError && (
        <p role="alert" className="error">
          {health.error.message}
        </p>
      )}
      {data && (
        <>
          <div className="count-cards" role="group" aria-label="Files by state">
            {healthFilters.map((f) => (
              <button
                key={f.value}
                type="button"
                className={`count-card ${f.value}`}
                aria-pressed={filter === f.value}
                data-testid={`count-${f.value}`}
                onClick={() => choose(f.value)}
              >
                <span className="count-label">{f.label}</span>
                <span className="count-value">{filterCount(data.counts, f.value)}</span>
              </button>
            ))}
          </div>
          <PolicyCard view={data} />
          <section className="card" aria-labelledby="health-files-title">
            <div className="card-head">
              <h2 id="health-files-title">{filter === "all" ? "Files" : `Files: ${healthFilters.find((f) => f.value === filter)?.label}`}</h2>
              {filter !== "all" && (
                <button type="button" className="link" onClick={() => choose("all")}>
                  Show all
                </button>
              )}
            </div>
            {data.files.length === 0 ? (
              <p className="muted flush">{filter === "all" ? "No library file has a health record yet: they get one when a job completes." : "No file is in this state."}</p>
            ) : (
              <FileTable files={data.files} now={now} />
            )}
            <Pager page={page} pageSize={pageSize} total={data.total} onPage={setPage} hideSinglePage />
          </section>
          <AuditCard entries={data.audit} />
        </>
      )}
    </div>
  );
}

function PolicyCard({ view }: { view: HealthView }) {
  const { stats } = view;
  return (
    <section className="card policy" aria-labelledby="health-policy-title">
      <h2 id="health-policy-title">Policy</h2>
      <p className="flush" data-testid="health-policy">
        {describePolicy(view.policy)}
      </p>
      <p className="muted small flush" data-testid="health-stats">
        Articles asked about since the server started: {stats.present.toLocaleString()} present · {stats.missing.toLocaleString()} missing ·{" "}
        {stats.unknown.toLocaleString()} unanswered.
      </p>
      <p className="muted small flush">
        A file with holes is first rebuilt from its release's PAR2 recovery data; a Broken one PAR2 cannot rebuild is replaced through the Sonarr and Radarr instances in <Link to="/settings">Settings</Link>. The thresholds and caps are set there or in the configuration
        (Health section).
      </p>
    </section>
  );
}

function FileTable({ files, now }: { files: HealthFile[]; now: number }) {
  return (
    <div className="table-scroll">
      <table className="health-files stacked">
        <thead>
          <tr>
            <th>State</th>
            <th>File</th>
            <th>Last check</th>
            <th>Next check</th>
            <th>Holes</th>
            <th>Repair</th>
            <th>Actions</th>
          </tr>
        </thead>
        {files.map((file) => (
          <FileRows key={file.id} file={file} now={now} />
        ))}
      </table>
    </div>
  );
}

/** The folder of a library file on the Files page, when its path is under /content. */
function folderUrl(path: string): string | null {
  if (!path.startsWith(contentRoot + "/")) return null;
  return filesPageUrl(path.slice(0, path.lastIndexOf("/")));
}

function FileRows({ file, now }: { file: HealthFile; now: number }) {
  const action = useHealthAction(file.id);
  const [last, setLast] = useState<HealthAction["kind"] | null>(null);
  const offered = fileActions(file);
  const folder = folderUrl(file.path);
  const par2 = usePar2Plan(file.id, file.state, offered.par2);

  function run(next: HealthAction) {
    setLast(next.kind);
    action.mutate(next);
  }

  const busy = action.isPending;
  // A check of this file running now: one asked here, a scheduled one, or one asked in another tab.
  const running = file.checking ? describeRunningCheck(file.checking) : null;
  const repairing = file.par2 ? describePar2(file.par2) : null;
  // "PAR2 repair queued: …" has said what it had to once the repair ended; the row shows how it ended.
  const answer = action.data && !(last === "par2" && !repairing && file.repair !== "repairing") ? action.data : null;
  return (
    <tbody aria-label={file.name} data-testid="health-file">
      <tr>
        <td data-label="State">
          <span className={`pill ${file.state}`} data-testid="health-state">
            {stateLabel(file.state)}
          </span>
        </td>
        <td className="health-name">
          <div className="job-name">{file.name}</div>
          <div className="muted small path-text">
            {folder ? <Link to={folder}>{file.path}</Link> : file.path} · {bytes(file.size)}
          </div>
          {file.detail && (
            <div className="small detail-text" data-testid="health-detail">
              {file.detail}
            </div>
          )}
          {offered.par2 && par2.data && !par2.data.possible && (
            <div className="small detail-text muted" data-testid="health-par2-plan">
              PAR2: {par2.data.summary}
            </div>
          )}
          {file.patches && (
            <div className="small detail-text" data-testid="health-patches" title={describePatchRanges(file.patches, 100)}>
              <span className="muted">Patched:</span> {describePatches(file.patches)}; {describePatchRanges(file.patches)}
            </div>
          )}
          {/* Once the answer of a repair shows under the row, the same sentence is not repeated here. */}
          {file.repairMessage && file.repairMessage !== answer?.message && (
            <div className="small detail-text repair-message" data-testid="health-repair-message">
              <span className="muted">Repair:</span> {file.repairMessage}
            </div>
          )}
        </td>
        <td data-label="Last check">
          {file.lastCheckedAt ? <Moment iso={file.lastCheckedAt} now={now} past testId="health-last-check" /> : <span data-testid="health-last-check">never</span>}
        </td>
        <td data-label="Next check">
          <time dateTime={file.nextCheckAt} title={`${dateTime(file.nextCheckAt, true)} (${isoTitle(file.nextCheckAt)})`}>
            {nextCheckLabel(file, now)}
          </time>
        </td>
        <td data-label="Holes">
          <span data-testid="health-holes">{describeHoles(file, now)}</span>
          <div className="muted small">{describeCoverage(file)}</div>
        </td>
        <td data-label="Repair">
          <span className={`pill repair-${file.repair}`} data-testid="health-repair">
            {repairLabel(file.repair)}
          </span>
          {file.repairAttempts > 0 && (
            <div className="muted small">
              {file.repairAttempts} attempt{file.repairAttempts === 1 ? "" : "s"}
              {file.lastRepairAt ? `, last ${relativeTime(file.lastRepairAt, now)}` : ""}
            </div>
          )}
        </td>
        <td className="health-actions">
          <div className="job-actions">
            <button type="button" className="secondary" disabled={busy} onClick={() => run({ kind: "check" })}>
              {busy && last === "check" ? "Checking…" : "Check now"}
            </button>
            {offered.par2 && par2.data?.possible && (
              <button type="button" disabled={busy} onClick={() => run({ kind: "par2" })} title={par2.data.summary}>
                {busy && last === "par2" ? "Queuing the PAR2 repair…" : par2ButtonLabel(par2.data.bytesToFetch)}
              </button>
            )}
            {offered.repair && (
              <button type="button" className="danger" disabled={busy} onClick={() => run({ kind: "repair" })}>
                {busy && last === "repair" ? "Asking Sonarr/Radarr…" : "Replace through Sonarr"}
              </button>
            )}
            {offered.ignore && (
              <button type="button" className="secondary" disabled={busy} onClick={() => run({ kind: "ignore", ignored: true })}>
                Ignore
              </button>
            )}
            {offered.unignore && (
              <button type="button" className="secondary" disabled={busy} onClick={() => run({ kind: "ignore", ignored: false })}>
                Un-ignore
              </button>
            )}
          </div>
        </td>
      </tr>
      {(busy || running || repairing || answer || action.error) && (
        <tr className="health-message-row">
          <td colSpan={7}>
            <div className="health-message">
              {running && (
                <div role="status" className="check-progress" data-testid="health-progress">
                  <span>{running.text}</span>
                  <progress max={Math.max(1, running.total)} value={running.done} aria-label={`Check of ${file.name}`} />
                </div>
              )}
              {repairing && (
                <div role="status" className="check-progress" data-testid="health-par2-progress">
                  <span>{repairing.text}</span>
                  <progress max={Math.max(1, repairing.total)} value={repairing.done} aria-label={`PAR2 repair of ${file.name}`} />
                </div>
              )}
              {busy && last === "par2" && (
                <span className="muted" role="status">
                  Planning the repair from the release's PAR2 index…
                </span>
              )}
              {!running && busy && last === "check" && (
                <span className="muted" role="status">
                  Asking every provider about each segment…
                </span>
              )}
              {!busy && answer && (
                <span role="status" data-testid="health-action-message">
                  {answer.message}
                </span>
              )}
              {!busy && action.error && (
                <span role="alert" className="error">
                  {action.error.message}
                </span>
              )}
            </div>
          </td>
        </tr>
      )}
    </tbody>
  );
}

function AuditCard({ entries }: { entries: HealthAuditEntry[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? entries : entries.slice(0, auditShown);
  return (
    <section className="card" aria-labelledby="health-audit-title">
      <div className="card-head">
        <h2 id="health-audit-title">Audit log</h2>
        <span className="muted small">newest first</span>
      </div>
      {entries.length === 0 ? (
        <p className="muted flush">Nothing yet: state changes, checks asked for, repairs and the calls they made appear here.</p>
      ) : (
        <div className="table-scroll">
          <table className="health-audit stacked" aria-label="Audit log">
            <thead>
              <tr>
                <th>Time</th>
                <th>Action</th>
                <th>File and detail</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((entry) => (
                <tr key={entry.id} data-testid="audit-entry">
                  <td data-label="Time">
                    <Moment iso={entry.at} />
                  </td>
                  <td data-label="Action">
                    <span className={`pill ${auditTone(entry.action, entry.detail)}`} data-testid="audit-action">
                      {auditLabel(entry.action)}
                    </span>
                  </td>
                  <td className="audit-detail">
                    <div className="muted small path-text">{entry.path}</div>
                    <div className="detail-text">{entry.detail}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {entries.length > auditShown && (
        <button type="button" className="link audit-more" onClick={() => setAll(!all)}>
          {all ? `Show the newest ${auditShown}` : `Show all ${entries.length}`}
        </button>
      )}
    </section>
  );
}
