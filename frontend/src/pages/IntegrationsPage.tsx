import { useId, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { useIntegrations, useMountCheck } from "../api/integrations";
import type { Integrations, MediaServerValues, RcloneValues, SabClientValues } from "../api/types";
import { CopyButton } from "../components/CopyButton";
import { MountStatus } from "../components/MountStatus";
import { checkSummary, splitPlaceholder } from "../lib/integrations";
import { masked } from "../lib/settings";

/**
 * Settings → Integrations: the exact values to enter in Sonarr/Radarr, rclone, docker-compose and
 * Plex/Jellyfin, each with a Copy button; the managed mount's state; and a check that reads one
 * library file through the mount path.
 */
export function IntegrationsPage() {
  const integrations = useIntegrations();
  const data = integrations.data;

  return (
    <div className="page settings integrations">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/settings">Settings</Link>
        <span aria-hidden="true">›</span>
        <span aria-current="page">Integrations</span>
      </nav>
      <div className="title-row">
        <h1>Integrations</h1>
      </div>
      <p className="muted flush">
        What to enter in the programs around NzbDav, built from this server's settings and the address your browser reached it at.
      </p>
      {integrations.isPending && <p className="muted">Loading…</p>}
      {integrations.isError && (
        <p role="alert" className="error">
          {integrations.error.message}
        </p>
      )}
      {data && <Cards data={data} />}
    </div>
  );
}

function Cards({ data }: { data: Integrations }) {
  return (
    <>
      <MountCard data={data} />
      <SabCard sab={data.sab} />
      <RcloneCard rclone={data.rclone} />
      <Card title="docker-compose" testId="compose">
        <p className="muted small">
          One container that mounts its own library (FUSE: the device, the capability, and the folder shared with <code>rshared</code>), or
          NzbDav beside the official rclone image. Sonarr, Radarr, Plex and Jellyfin bind the same folder at the same path with{" "}
          <code>rslave</code>.
        </p>
        <CodeBlock title="NzbDav with its managed mount" text={data.compose.managed} testId="compose-managed" />
        <CodeBlock title="NzbDav with an rclone sidecar" text={data.compose.sidecar} testId="compose-sidecar" />
      </Card>
      <MediaCard media={data.mediaServer} />
    </>
  );
}

function Card({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/* The managed mount and the check */

function MountCard({ data }: { data: Integrations }) {
  const check = useMountCheck();
  const result = check.data;
  return (
    <Card title="The mount" testId="mount">
      <MountStatus mount={data.mount} />
      <p className="muted small">
        The check reads one library file through {data.mediaServer.mountPath} where NzbDav runs, compares its size and first bytes with what
        NzbDav serves, and looks at its completed entry.
      </p>
      <div>
        <button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
          {check.isPending ? "Checking…" : "Check the mount"}
        </button>
      </div>
      {check.isError && (
        <p role="alert" className="error">
          {check.error.message}
        </p>
      )}
      {result && !check.isPending && (
        <div className={`test-result ${result.ok ? "ok" : "failed"}`} data-testid="mount-check">
          <p role="status" className={result.ok ? "passed" : "step-failed"}>
            {checkSummary(result)}
          </p>
          <ul className="test-steps mount-checks" aria-label="Mount checks">
            {result.checks.map((c, i) => (
              <li key={`${c.name}-${i}`} className={c.ok ? "step-ok" : "step-failed"} data-testid="mount-check-item">
                <span aria-hidden="true">{c.ok ? "✓" : "✗"}</span> <strong>{c.name}</strong> <span className="visually-hidden">{c.ok ? "passed" : "failed"}</span>
                <span className="check-detail">{c.detail}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

/* Sonarr and Radarr */

function SabCard({ sab }: { sab: SabClientValues }) {
  const [shown, setShown] = useState(false);
  const mapping = sab.remotePathMapping;
  return (
    <Card title="Sonarr / Radarr" testId="sab">
      <p className="muted small">
        Settings → Download Clients → + → <strong>SABnzbd</strong>.{" "}
        {sab.source === "public URL"
          ? "Host and port come from NzbDav's public URL (Settings → WebDAV)."
          : "Host and port are the ones your browser reached NzbDav at; from Sonarr's container use the name it reaches NzbDav by (e.g. nzbdav in docker-compose)."}
      </p>
      <dl className="values">
        <Value label="Host" value={sab.host} testId="sab-host" />
        <Value label="Port" value={String(sab.port)} testId="sab-port" />
        <Value label="Use SSL" value={sab.useSsl ? "on" : "off"} testId="sab-ssl" copy={false} />
        <Value label="URL Base" value={sab.urlBase} testId="sab-url-base" empty="empty" />
        <div className="value-row">
          <dt>API Key</dt>
          <dd>
            <code className="value" data-testid="sab-api-key">
              {shown ? sab.apiKey : masked(sab.apiKey)}
            </code>
            <button type="button" className="secondary" aria-pressed={shown} onClick={() => setShown(!shown)}>
              {shown ? "Hide" : "Show"}
            </button>
            <CopyButton label="Copy" name="API key" text={sab.apiKey} />
          </dd>
        </div>
      </dl>
      <h3>Categories</h3>
      <p className="muted small flush">
        Sonarr takes one (e.g. <code>tv</code>), Radarr another (e.g. <code>movies</code>). Each job finished in a category appears in its
        completed folder.
      </p>
      <dl className="values">
        {sab.categories.map((c) => (
          <div className="value-row" key={c.category}>
            <dt>
              <code className="value" data-testid={`category-${c.category}`}>
                {c.category}
              </code>
            </dt>
            <dd>
              <code className="value" data-testid={`completed-${c.category}`}>
                {c.completedFolder}
              </code>
              <CopyButton label="Copy" name={`completed folder of ${c.category}`} text={c.completedFolder} />
            </dd>
          </div>
        ))}
      </dl>
      <h3>Remote path mapping</h3>
      <p className="muted small flush" data-testid="remote-path-note">
        {mapping.note}
      </p>
      <dl className="values">
        <Value label="Host" value={mapping.host} testId="mapping-host" name="mapping host" />
        <Value label="Remote Path" value={mapping.remotePath} testId="mapping-remote-path" />
        <div className="value-row">
          <dt>Local Path</dt>
          <dd className="muted">{mapping.localPath}</dd>
        </div>
      </dl>
    </Card>
  );
}

/* rclone */

function RcloneCard({ rclone }: { rclone: RcloneValues }) {
  return (
    <Card title="rclone" testId="rclone">
      <p className="muted small">
        The remote, once (replace <code>{rclone.passwordPlaceholder}</code> with the WebDAV password: NzbDav keeps only its hash, so it cannot
        fill it in). User <code>{rclone.user}</code>, address <code>{rclone.url}</code>.
      </p>
      <CodeBlock title="Remote" text={rclone.configCommand} testId="rclone-config" placeholder={rclone.passwordPlaceholder} />
      <p className="muted small">
        The mount, at the mount path Sonarr/Radarr and Plex/Jellyfin also see.
        {rclone.links && " --links turns the completed entries into symlinks; it needs rclone 1.69 or later (older ones show .rclonelink files: use a newer rclone or NzbDav:CompletedEntries=Strm)."}
      </p>
      <CodeBlock title="Mount" text={rclone.mountCommand} testId="rclone-mount" />
    </Card>
  );
}

/* Plex and Jellyfin */

function MediaCard({ media }: { media: MediaServerValues }) {
  return (
    <Card title="Plex / Jellyfin" testId="media">
      <p className="muted small" data-testid="media-note">
        {media.note}
      </p>
      <dl className="values">
        <Value label="Mount path" value={media.mountPath} testId="media-mount-path" />
        <Value label="Volume" value={media.volume} testId="media-volume" name="docker volume" />
        {media.libraries.map((l) => (
          <Value key={l.path} label={l.label} value={l.path} testId={`library-${l.label.replace(/\W+/g, "-").toLowerCase()}`} name={`${l.label} folder`} />
        ))}
      </dl>
    </Card>
  );
}

/* Building blocks */

function Value({
  label,
  value,
  testId,
  name,
  copy = true,
  empty,
}: {
  label: string;
  value: string;
  testId: string;
  name?: string;
  copy?: boolean;
  empty?: string;
}) {
  return (
    <div className="value-row">
      <dt>{label}</dt>
      <dd>
        <code className={value === "" ? "value empty" : "value"} data-testid={testId}>
          {value === "" ? (empty ?? "") : value}
        </code>
        {copy && <CopyButton label="Copy" name={name ?? label} text={value} />}
      </dd>
    </div>
  );
}

function CodeBlock({ title, text, testId, placeholder }: { title: string; text: string; testId: string; placeholder?: string }) {
  const id = useId();
  return (
    <figure className="code-block" aria-labelledby={id}>
      <figcaption>
        <span id={id}>{title}</span>
        <CopyButton label="Copy" name={title.toLowerCase()} text={text} />
      </figcaption>
      <pre data-testid={testId}>
        <code>
          {placeholder
            ? splitPlaceholder(text, placeholder).map((part, i) =>
                part.placeholder ? (
                  <mark key={i} title="Replace with your WebDAV password">
                    {part.text}
                  </mark>
                ) : (
                  part.text
                ),
              )
            : text}
        </code>
      </pre>
    </figure>
  );
}
