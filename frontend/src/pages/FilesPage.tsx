import { Fragment, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { CopyButton } from "../components/CopyButton";
import { useFileTest, useFiles } from "../api/files";
import { apiPaths } from "../api/paths";
import type { FileEntry } from "../api/types";
import { breadcrumbs, contentRoot, describeMediaError, describeTest, filesPageUrl, mediaKind, sortEntries } from "../lib/files";
import { bytes } from "../lib/format";
import { badgeFilter, badgeLabel, healthPageUrl } from "../lib/health";
import { Moment } from "../components/Moment";

/** The library as WebDAV clients see it, folder by folder, with a way to fetch, copy the address of, play or time each file. */
export function FilesPage() {
  const [params] = useSearchParams();
  const path = params.get("path") || contentRoot;
  const files = useFiles(path);
  const data = files.data;

  return (
    <section className="card" aria-labelledby="files-title">
      <div className="title-row">
        <h1 id="files-title">Files</h1>
      </div>
      <nav className="crumbs" aria-label="Folder path">
        {breadcrumbs(path).map((crumb, i, all) => (
          <Fragment key={crumb.path}>
            {i > 0 && <span className="muted">/</span>}
            {i === all.length - 1 ? <span aria-current="page">{crumb.name}</span> : <Link to={filesPageUrl(crumb.path)}>{crumb.name}</Link>}
          </Fragment>
        ))}
      </nav>
      {files.isPending && <p className="muted">Loading…</p>}
      {files.isError && (
        <p role="alert" className="error">
          {files.error.message}
        </p>
      )}
      {/* Keyed by folder so an open file's panel, player and copy state do not follow into the next folder. */}
      {data && <Listing key={data.path} parent={data.parent} entries={sortEntries(data.entries)} />}
    </section>
  );
}

function Listing({ parent, entries }: { parent: string | null; entries: FileEntry[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="table-scroll">
      <table className="files">
        <thead>
          <tr>
            <th>Name</th>
            <th className="numeric">Size</th>
            <th className="wide-only">Modified</th>
          </tr>
        </thead>
        <tbody>
          {parent !== null && (
            <tr>
              <td className="name" colSpan={3}>
                <Link to={filesPageUrl(parent)}>.. (up)</Link>
              </td>
            </tr>
          )}
          {entries.length === 0 && (
            <tr>
              <td colSpan={3} className="muted">
                This folder is empty.
              </td>
            </tr>
          )}
          {entries.map((entry) => (
            <Fragment key={entry.path}>
              <tr>
                <td className="name">
                  {entry.isDirectory ? (
                    <Link to={filesPageUrl(entry.path)}>{entry.name}/</Link>
                  ) : (
                    <>
                      {/* Not a link (it goes nowhere): a disclosure that opens the file's actions, and looks like one. */}
                      <button
                        type="button"
                        className="disclosure"
                        aria-expanded={open === entry.path}
                        title="Show this file's actions: download, copy its address, play, test"
                        onClick={() => setOpen(open === entry.path ? null : entry.path)}
                      >
                        <span className="disclosure-mark" aria-hidden="true">
                          {open === entry.path ? "▾" : "▸"}
                        </span>
                        {entry.name}
                      </button>
                      {entry.health && (
                        <Link
                          className={`pill health-badge ${entry.health}`}
                          to={healthPageUrl(badgeFilter(entry.health))}
                          title="Open the Health page"
                          aria-label={`Health: ${badgeLabel(entry.health)}`}
                          data-testid="health-badge"
                        >
                          {badgeLabel(entry.health)}
                        </Link>
                      )}
                    </>
                  )}
                </td>
                <td className="numeric">{entry.isDirectory ? "" : bytes(entry.size)}</td>
                <td className="wide-only">
                  <Moment iso={entry.modified} />
                </td>
              </tr>
              {open === entry.path && (
                <tr className="file-panel-row">
                  <td colSpan={3}>
                    <FilePanel entry={entry} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function FilePanel({ entry }: { entry: FileEntry }) {
  const test = useFileTest();
  const kind = mediaKind(entry.name);
  const [playing, setPlaying] = useState(false);
  const [mediaError, setMediaError] = useState<string | null>(null);

  return (
    <div className="file-panel" role="region" aria-label={`${entry.name} actions`}>
      <div className="muted small">
        {bytes(entry.size)} · modified <Moment iso={entry.modified} />
      </div>
      <div className="job-actions">
        <a className="button-like" href={apiPaths.rawFile(entry.path, true)} download={entry.name}>
          Download
        </a>
        <CopyButton label="Copy WebDAV URL" text={entry.webDavUrl} />
        <CopyButton label="Copy mount path" text={entry.mountPath} />
        {kind && (
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setMediaError(null);
              setPlaying(!playing);
            }}
          >
            {playing ? "Close player" : "Play"}
          </button>
        )}
        <button type="button" className="secondary" disabled={test.isPending} onClick={() => test.mutate(entry.path)}>
          {test.isPending ? "Testing…" : "Test"}
        </button>
      </div>
      {test.data && (
        <p role="status" data-testid="test-result">
          Read {describeTest(test.data)}.
        </p>
      )}
      {test.isError && (
        <p role="alert" className="error">
          {test.error.message}
        </p>
      )}
      {playing && kind === "video" && (
        <video className="player" controls preload="metadata" src={apiPaths.rawFile(entry.path)} onError={(e) => setMediaError(describeMediaError(e.currentTarget.error))} />
      )}
      {playing && kind === "audio" && (
        <audio className="player" controls preload="metadata" src={apiPaths.rawFile(entry.path)} onError={(e) => setMediaError(describeMediaError(e.currentTarget.error))} />
      )}
      {playing && mediaError && (
        <p role="alert" className="error" data-testid="media-error">
          {mediaError}
        </p>
      )}
    </div>
  );
}
