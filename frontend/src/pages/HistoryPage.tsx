import { useState } from "react";
import { Link } from "react-router";
import { useHistory, useJobDelete, useJobRetry } from "../api/jobs";
import { apiPaths } from "../api/paths";
import type { HistoryFilter, HistoryJob } from "../api/types";
import { Pager } from "../components/Pager";
import { filesPageUrl } from "../lib/files";
import { bytes } from "../lib/format";
import { categoryLabel, historySizeHelp, queueSizeHelp } from "../lib/jobs";
import { useDebounced } from "../lib/useDebounced";
import { usePageOf } from "../lib/usePageOf";
import { Moment } from "../components/Moment";

const pageSize = 25;

const filters: { value: HistoryFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "completed", label: "Completed" },
  { value: "failed", label: "Failed" },
];

/** Finished jobs, newest first, a page at a time; new completions appear without a reload. */
export function HistoryPage() {
  const [typed, setTyped] = useState("");
  const search = useDebounced(typed.trim(), 300);
  const [status, setStatus] = useState<HistoryFilter>("all");
  // A new search or filter starts from its first page.
  const [page, setPage] = usePageOf(JSON.stringify([search, status]));
  const history = useHistory({ page, pageSize, search, status });
  const data = history.data;

  return (
    <section className="card" aria-labelledby="history-title">
      <div className="title-row">
        <h1 id="history-title">History</h1>
        {data && <span className="muted small">{data.total} in all</span>}
      </div>
      <div className="filters">
        <input type="search" placeholder="Search" aria-label="Search the history" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <label>
          Status{" "}
          <select value={status} onChange={(e) => setStatus(e.target.value as HistoryFilter)}>
            {filters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {history.isPending && <p className="muted">Loading…</p>}
      {history.isError && (
        <p role="alert" className="error">
          {history.error.message}
        </p>
      )}
      {data?.jobs.length === 0 && <p className="muted">{search || status !== "all" ? "No job matches." : "Nothing has finished yet."}</p>}
      {data && data.jobs.length > 0 && (
        <ul className="job-list" aria-label="History">
          {data.jobs.map((job) => (
            <HistoryItem key={job.id} job={job} />
          ))}
        </ul>
      )}
      {data && <Pager page={page} pageSize={pageSize} total={data.total} onPage={setPage} />}
    </section>
  );
}

function HistoryItem({ job }: { job: HistoryJob }) {
  const retry = useJobRetry();
  const remove = useJobDelete();
  const [confirming, setConfirming] = useState(false);
  const error = retry.error ?? remove.error;
  const failed = job.status === "Failed";

  return (
    <li className="job" aria-label={job.name}>
      <div className="job-head">
        <span className="job-name">{job.name}</span>
        <span className={`pill ${job.status.toLowerCase()}`} data-testid="job-status">
          {job.status}
        </span>
      </div>
      <div className="muted small">
        {categoryLabel(job.category)} ·{" "}
        <span data-testid="job-size" title={failed ? queueSizeHelp : historySizeHelp}>
          {bytes(job.totalBytes)}
          {failed ? " on Usenet" : " of files"}
        </span>{" "}
        · {failed ? "failed" : "completed"} <Moment iso={job.completedAt ?? job.addedAt} />
      </div>
      {failed && job.failMessage && (
        <p className="error fail-message" data-testid="fail-message">
          {job.failMessage}
        </p>
      )}
      <div className="job-actions">
        {failed && job.canRetry && (
          <button type="button" className="secondary" disabled={retry.isPending} onClick={() => retry.mutate(job.id)}>
            {retry.isPending ? "Retrying…" : "Retry"}
          </button>
        )}
        <a className="button-like" href={apiPaths.jobNzb(job.id)} download>
          Download NZB
        </a>
        {job.contentPath && (
          <Link className="button-like" to={filesPageUrl(job.contentPath)}>
            Browse files
          </Link>
        )}
        {!confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete…
          </button>
        )}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <button
            type="button"
            className="secondary"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: job.id, deleteFiles: false }, { onSettled: () => setConfirming(false) })}
          >
            Remove entry (keep files)
          </button>
          {job.contentPath && (
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => remove.mutate({ id: job.id, deleteFiles: true }, { onSettled: () => setConfirming(false) })}
            >
              Delete with files
            </button>
          )}
          <button type="button" className="link" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {retry.isSuccess && <p role="status">Back in the queue.</p>}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
    </li>
  );
}
