import { Fragment } from "react";
import { Link } from "react-router";
import { useLiveFeed, type DiskCacheView, type PoolView, type ProviderView, type StreamView } from "../api/live";
import { ClusterNodes } from "../components/ClusterNodes";
import { Moment } from "../components/Moment";
import { MountStatus } from "../components/MountStatus";
import { RateChart } from "../components/RateChart";
import { diskCacheFigures, economyFigures, fetchedPerServedHelp, streamEconomy, type EconomyFigure } from "../lib/economy";
import { bytes, milliseconds, percent, rate } from "../lib/format";
import { bandwidthLine, providerState, roleLabel } from "../lib/providers";

/** What the server is doing now: throughput, streams, providers and the connection budget, live. */
export function DashboardPage() {
  const { snapshot, state, history } = useLiveFeed();
  const ratio = snapshot && snapshot.servedBytesPerSecond > 0 ? (snapshot.fetchedBytesPerSecond / snapshot.servedBytesPerSecond).toFixed(2) : "–";

  return (
    <div className="dashboard">
      <div className="title-row">
        <h1>Dashboard</h1>
        <span className={`pill ${state}`} data-testid="live-state">
          {state}
        </span>
      </div>

      <section className="tiles" aria-label="Throughput">
        <Tile label="Served" value={snapshot ? rate(snapshot.servedBytesPerSecond) : "–"} detail={snapshot ? `${bytes(snapshot.servedBytes)} to players in all` : ""} testId="served" />
        <Tile label="Fetched" value={snapshot ? rate(snapshot.fetchedBytesPerSecond) : "–"} detail={snapshot ? `${bytes(snapshot.fetchedBytes)} in all: queue, health checks, streams` : ""} testId="fetched" />
        <Tile label="Fetched ÷ served" value={ratio} detail="over the last tick" testId="ratio" />
        <Tile label="Streams" value={snapshot ? String(snapshot.streams.length) : "–"} detail="open now" testId="stream-count" />
      </section>

      {snapshot?.nodes && snapshot.nodes.length > 0 && <ClusterNodes nodes={snapshot.nodes} />}

      <section className="card" aria-labelledby="mount-title">
        <h2 id="mount-title">Mount</h2>
        {snapshot && <MountStatus mount={snapshot.mount} />}
        <p className="muted small mount-link">
          How to mount NzbDav and check it: <Link to="/settings/integrations">Settings → Integrations</Link>.
        </p>
      </section>

      <section className="card">
        <h2>Last minutes</h2>
        <RateChart points={history} />
      </section>

      <section className="card" aria-labelledby="streams-title">
        <h2 id="streams-title">Streams</h2>
        {snapshot && snapshot.streams.length === 0 && <p className="muted">Nothing is being served right now.</p>}
        {snapshot && snapshot.streams.length > 0 && (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>File</th>
                  <th>Client</th>
                  <th>Position</th>
                  <th>Rate</th>
                  <th title="Bytes fetched ahead of the player and held for it">Read-ahead</th>
                  <th title="Decoded bytes fetched from Usenet providers for this stream">Fetched</th>
                  <th title="Decoded bytes this stream took from the segment cache or from another stream's fetch instead of fetching them">From cache</th>
                  <th title={fetchedPerServedHelp}>Fetched ÷ served</th>
                </tr>
              </thead>
              <tbody>
                {snapshot.streams.map((s) => (
                  <StreamRow key={s.id} stream={s} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="economy-title">
        <h2 id="economy-title">Provider economy</h2>
        <p className="muted small flush">
          What streaming cost the providers since the server started: every byte players got, every byte fetched for them, and what the segment cache
          and shared fetches saved.
        </p>
        {snapshot && <Figures figures={economyFigures(snapshot.economy)} prefix="economy" />}
      </section>

      {snapshot?.diskCache && <DiskCache disk={snapshot.diskCache} />}

      <section className="card" aria-labelledby="providers-title">
        <h2 id="providers-title">Providers</h2>
        {snapshot && snapshot.providers.length === 0 && <p className="muted">No Usenet provider is configured.</p>}
        {snapshot && snapshot.providers.length > 0 && (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>Provider</th>
                  <th>State</th>
                  <th>Sessions in use / open / max</th>
                  <th>Waiting</th>
                  <th>Articles/s</th>
                  <th title="Mean time from sending a command to its status line, over the last tick">Latency</th>
                  <th>Rate</th>
                  <th title="Articles no provider had / failed articles, CRC mismatches and failed connections, since start">Missing / errors</th>
                </tr>
              </thead>
              <tbody>
                {snapshot.providers.map((p) => (
                  <ProviderRows key={p.name} provider={p} now={Date.parse(snapshot.at)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {snapshot?.bandwidth && (
          <p className="muted" data-testid="bandwidth">
            {bandwidthLine(snapshot.bandwidth)}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="limiter-title">
        <h2 id="limiter-title">Connection budget</h2>
        {snapshot && (
          <>
            <p className="muted">
              {snapshot.limiter.inUse} of {snapshot.limiter.capacity} connections in use.
            </p>
            <div className="pools">
              {snapshot.limiter.pools.map((pool) => (
                <Pool key={pool.name} pool={pool} capacity={snapshot.limiter.capacity} />
              ))}
            </div>
          </>
        )}
      </section>
    </div>
  );
}

function ProviderRows({ provider: p, now }: { provider: ProviderView; now: number }) {
  const state = providerState(p, now);
  return (
    <>
      <tr data-testid={`provider-${p.name}`} className={state.error ? "has-detail" : undefined}>
        <td>
          {p.name} <span className="muted">{roleLabel(p.role)}</span>
        </td>
        <td>
          <span className={`pill provider-${state.tone}`} title={state.title} data-testid="provider-state">
            {state.label}
          </span>
        </td>
        <td>
          {p.inUse} / {p.open} / {p.maxConnections}
        </td>
        <td>{p.waiters}</td>
        <td>{p.articlesPerSecond.toFixed(1)}</td>
        <td>{p.latencyMs == null ? "–" : milliseconds(p.latencyMs)}</td>
        <td>{rate(p.fetchedBytesPerSecond)}</td>
        <td>
          {p.missing} / {p.errors + p.crcMismatches + p.connectionFailures}
        </td>
      </tr>
      {state.detail && (
        <tr className="provider-detail" data-testid={`provider-${p.name}-detail`}>
          <td colSpan={8}>
            <div className="provider-detail-text">
              <span className={`provider-detail-${state.tone}`}>{state.detail}</span>
              {state.error && (
                <>
                  {" "}
                  Last error <Moment iso={p.lastErrorAt} now={now} past />: <span data-testid="provider-error">{state.error}</span>
                </>
              )}
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function Tile({ label, value, detail, testId }: { label: string; value: string; detail: string; testId: string }) {
  return (
    <div className="tile">
      <div className="muted">{label}</div>
      <div className="tile-value" data-testid={testId}>
        {value}
      </div>
      <div className="muted small">{detail}</div>
    </div>
  );
}

function StreamRow({ stream: s }: { stream: StreamView }) {
  const economy = streamEconomy(s);
  return (
    <tr>
      <td className="path">
        <BreakableAtSlashes path={decodeURIComponent(s.path)} />
      </td>
      <td>{s.client ?? "–"}</td>
      <td>
        {bytes(s.position)} of {bytes(s.fileSize)} ({percent(s.position, s.fileSize)})
      </td>
      <td>{rate(s.bytesPerSecond)}</td>
      <td data-testid="read-ahead">{s.readAheadBytes == null ? "–" : bytes(s.readAheadBytes)}</td>
      <td data-testid="stream-fetched">{economy.fetched}</td>
      <td data-testid="stream-shared">{economy.shared}</td>
      <td data-testid="stream-ratio" title={fetchedPerServedHelp}>
        {economy.ratio}
      </td>
    </tr>
  );
}

/** A path that wraps after its slashes (folder, then file) rather than anywhere. */
function BreakableAtSlashes({ path }: { path: string }) {
  const parts = path.split("/");
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              /<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}

function Figures({ figures, prefix }: { figures: EconomyFigure[]; prefix: string }) {
  return (
    <div className="economy">
      {figures.map((f) => (
        <div key={f.key} className="figure" title={f.title}>
          <div className="muted small">{f.label}</div>
          <div className="figure-value" data-testid={`${prefix}-${f.key}`}>
            {f.value}
          </div>
          {f.meter && <progress max={Math.max(1, f.meter.max)} value={Math.min(f.meter.value, Math.max(1, f.meter.max))} aria-label={`${f.label} in use`} />}
          <div className="muted small">{f.detail}</div>
        </div>
      ))}
    </div>
  );
}

function DiskCache({ disk }: { disk: DiskCacheView }) {
  return (
    <section className="card" aria-labelledby="disk-cache-title" data-testid="disk-cache">
      <h2 id="disk-cache-title">Disk cache</h2>
      <p className="muted small flush">
        Segments kept on disk in <code>{disk.path}</code>, so a library scanned again or a file played again costs the providers nothing, across
        restarts.
      </p>
      {disk.degraded && (
        <p role="alert" className="error" data-testid="disk-cache-degraded">
          Not writing: {disk.degraded.replace(/\.$/, "")}. Reads go to the providers meanwhile; a write is tried again after a pause, and the cache resumes on its own once one works.
        </p>
      )}
      <Figures figures={diskCacheFigures(disk)} prefix="disk-cache" />
    </section>
  );
}

function Pool({ pool, capacity }: { pool: PoolView; capacity: number }) {
  return (
    <div className="pool" data-testid={`pool-${pool.name}`}>
      <div className="pool-head">
        <strong>{pool.name}</strong>
        <span className="muted">
          {pool.inUse} in use · {pool.guaranteed} guaranteed · {pool.maximum} max{pool.waiting > 0 ? ` · ${pool.waiting} waiting` : ""}
        </span>
      </div>
      <progress max={Math.max(1, capacity)} value={pool.inUse} aria-label={`${pool.name} in use`} />
    </div>
  );
}
