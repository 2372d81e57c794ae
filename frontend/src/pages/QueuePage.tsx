import { useRef, useState, type DragEvent, type FormEvent } from "react";
import { useAddUrl, useJobDelete, useJobPause, useJobPriority, useQueue, useQueuePause, useUpload } from "../api/jobs";
import type { AddResult, Priority, QueueJob } from "../api/types";
import { bytes, duration, rate } from "../lib/format";
import { addOptions, addProblem, categoryLabel, priorities, queueSizeHelp, uploadForm, uploadProgressText, type AddFields } from "../lib/jobs";
import type { UploadProgress } from "../api/client";
import { Field } from "../components/Field";

/** What is waiting or being processed, in run order, with a panel to add NZBs by file or URL. */
export function QueuePage() {
  const queue = useQueue();
  const data = queue.data;
  const pause = useQueuePause();
  const paused = pause.isPending ? pause.variables : data?.paused;

  return (
    <div className="page">
      <div className="title-row">
        <h1>Queue</h1>
        {data && (
          <>
            <span className={`pill ${paused ? "paused" : "live"}`} data-testid="queue-state">
              {paused ? "paused" : "running"}
            </span>
            <span className="muted small">
              {rate(data.bytesPerSecond)}
              {data.timeLeftSeconds !== null && <> · {duration(data.timeLeftSeconds)} left</>}
            </span>
            <button type="button" className="secondary push-right" disabled={pause.isPending} onClick={() => pause.mutate(!data.paused)}>
              {data.paused ? "Resume queue" : "Pause queue"}
            </button>
          </>
        )}
      </div>
      {pause.isError && (
        <p role="alert" className="error">
          {pause.error.message}
        </p>
      )}

      <AddPanel categories={queue.data?.categories ?? []} />

      <section className="card" aria-labelledby="jobs-title">
        <h2 id="jobs-title">Jobs{queue.data ? ` (${queue.data.jobs.length})` : ""}</h2>
        {queue.isPending && <p className="muted">Loading…</p>}
        {queue.isError && (
          <p role="alert" className="error">
            {queue.error.message}
          </p>
        )}
        {queue.data?.jobs.length === 0 && <p className="muted">The queue is empty. Add an NZB above, or let Sonarr and Radarr send some.</p>}
        {queue.data && queue.data.jobs.length > 0 && (
          <ul className="job-list" aria-label="Queue">
            {queue.data.jobs.map((job) => (
              <QueueItem key={job.id} job={job} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

const emptyFields: AddFields = { category: "", priority: 0, name: "", password: "" };

function AddPanel({ categories }: { categories: string[] }) {
  const picker = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [url, setUrl] = useState("");
  const [fields, setFields] = useState<AddFields>(emptyFields);
  const [dragging, setDragging] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<AddResult | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useUpload(setProgress);
  const addUrl = useAddUrl();
  const busy = upload.isPending || addUrl.isPending;
  const serverError = upload.error ?? addUrl.error;

  function choose(chosen: FileList | null) {
    setFiles(chosen ? Array.from(chosen) : []);
    setProblem(null);
    // The same file chosen again after a clear must still fire a change.
    if (picker.current) picker.current.value = "";
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const local = addProblem(files.length, url);
    setProblem(local);
    if (local) return;
    upload.reset();
    addUrl.reset();
    setResult(null);
    setProgress(null);
    if (files.length > 0) {
      upload.mutate(uploadForm(files, fields), {
        onSuccess: (answer) => {
          setResult(answer);
          setFiles([]);
          setFields((f) => ({ ...f, name: "" }));
        },
      });
    } else {
      addUrl.mutate(
        { url: url.trim(), ...addOptions(fields, 1) },
        {
          onSuccess: (answer) => {
            setResult(answer);
            setUrl("");
            setFields((f) => ({ ...f, name: "" }));
          },
        },
      );
    }
  }

  const submitLabel = files.length > 1 ? `Add ${files.length} files` : files.length === 1 ? "Add 1 file" : url.trim() ? "Add from URL" : "Add";
  return (
    <section className="card" aria-labelledby="add-title">
      <h2 id="add-title">Add NZBs</h2>
      <form onSubmit={submit} noValidate>
        <div
          className={`dropzone${dragging ? " over" : ""}`}
          data-testid="drop-zone"
          onDragEnter={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragOver={(e) => {
            // Without this the browser refuses the drop and opens the file instead.
            e.preventDefault();
            e.dataTransfer.dropEffect = "copy";
            setDragging(true);
          }}
          onDragLeave={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
          }}
          onDrop={drop}
        >
          <p>Drop .nzb files here, or</p>
          <input
            ref={picker}
            className="visually-hidden"
            // The visible button opens it; focus goes there, not to an invisible control.
            tabIndex={-1}
            type="file"
            multiple
            accept=".nzb,application/x-nzb"
            aria-label="NZB files"
            onChange={(e) => choose(e.target.files)}
          />
          <button type="button" className="secondary" onClick={() => picker.current?.click()}>
            Choose files…
          </button>
          {files.length > 0 && (
            <div className="chosen">
              <ul aria-label="Chosen files">
                {files.map((f, i) => (
                  <li key={`${f.name}-${i}`}>
                    {f.name} <span className="muted">{bytes(f.size)}</span>
                  </li>
                ))}
              </ul>
              <button type="button" className="link" onClick={() => choose(null)}>
                Clear
              </button>
            </div>
          )}
        </div>

        <Field label="Or an NZB's URL" type="url" inputMode="url" placeholder="https://…" value={url} onChange={(e) => setUrl(e.target.value)} />

        <div className="options">
          {/* Until one is picked nothing is sent and the server files the job under its default, listed first. */}
          <Field
            control="select"
            label="Category"
            value={fields.category || categories[0] || ""}
            onChange={(e) => setFields({ ...fields, category: e.target.value })}
          >
            {categories.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </Field>
          <Field
            control="select"
            label="Priority"
            value={fields.priority}
            onChange={(e) => setFields({ ...fields, priority: Number(e.target.value) as Priority })}
          >
            {priorities.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Field>
          <Field
            label={`Name${files.length > 1 ? " (one file only)" : ""}`}
            value={files.length > 1 ? "" : fields.name}
            disabled={files.length > 1}
            placeholder="From the file"
            onChange={(e) => setFields({ ...fields, name: e.target.value })}
          />
          <Field
            label="Archive password"
            type="password"
            autoComplete="off"
            value={fields.password}
            onChange={(e) => setFields({ ...fields, password: e.target.value })}
          />
        </div>

        {(problem ?? serverError) && (
          <p role="alert" className="error">
            {problem ?? serverError?.message}
          </p>
        )}
        <div className="submit-row">
          <button type="submit" disabled={busy}>
            {busy ? "Adding…" : submitLabel}
          </button>
          {upload.isPending && progress && (
            <span className="upload-progress" role="status" data-testid="upload-progress">
              <progress max={Math.max(1, progress.total)} value={progress.sent} aria-label="Upload" />
              <span className="small">{uploadProgressText(progress)}</span>
            </span>
          )}
        </div>
      </form>

      <div role="status">
        {result && (
        <ul className="results" aria-label="Add results">
          {result.added.map((a) => (
            <li key={`added-${a.id}`} className="added">
              Added {a.file}
            </li>
          ))}
          {result.refused.map((r, i) => (
            <li key={`refused-${r.file}-${i}`} className="error">
              Refused {r.file}: {r.error}
            </li>
          ))}
        </ul>
        )}
      </div>
    </section>
  );
}

function QueueItem({ job }: { job: QueueJob }) {
  const priority = useJobPriority();
  const pause = useJobPause();
  const remove = useJobDelete();
  const [confirming, setConfirming] = useState(false);
  const error = priority.error ?? pause.error ?? remove.error;
  const shownPriority = priority.isPending ? priority.variables.priority : job.priority;
  const percentage = Math.max(0, Math.min(100, job.percentage));

  return (
    <li className="job" aria-label={job.name}>
      <div className="job-head">
        <span className="job-name">{job.name}</span>
        <span className={`pill ${job.status.toLowerCase()}`} data-testid="job-status">
          {job.status}
        </span>
        {job.hasPassword && <span className="pill">password</span>}
      </div>
      <div className="muted small">
        {categoryLabel(job.category)} ·{" "}
        <span data-testid="job-size" title={queueSizeHelp}>
          {bytes(job.totalBytes)} on Usenet
        </span>
        {job.timeLeftSeconds !== null && <> · {duration(job.timeLeftSeconds)} left</>}
        {job.step && <> · {job.step}</>}
      </div>
      <div className="progress-row">
        <progress max={100} value={percentage} aria-label={`Progress of ${job.name}`} />
        <span className="small">{Math.floor(percentage)} %</span>
      </div>
      <div className="job-actions">
        <label className="inline">
          Priority{" "}
          <select value={shownPriority} onChange={(e) => priority.mutate({ id: job.id, priority: Number(e.target.value) as Priority })}>
            {priorities.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="secondary" disabled={pause.isPending} onClick={() => pause.mutate({ id: job.id, pause: job.status !== "Paused" })}>
          {job.status === "Paused" ? "Resume" : "Pause"}
        </button>
        {!confirming && (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <span>Remove this job from the queue?</span>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: job.id, deleteFiles: true }, { onSettled: () => setConfirming(false) })}
          >
            Delete job
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
    </li>
  );
}
