import { useState } from "react";
import { useTraffic } from "../api/traffic";
import type { TrafficRange, TrafficSeries, TrafficView } from "../api/types";
import { bytes } from "../lib/format";
import { costRatio, legend, periodLabel, stackedBars } from "../lib/traffic";

const ranges: { value: TrafficRange; label: string }[] = [
  { value: "24h", label: "Last 24 hours" },
  { value: "30d", label: "Last 30 days" },
];

/**
 * Who caused the bytes: what each consumer (a client and how it read — a probe or a player —, the
 * queue, health checks) made the providers send, what was served to it, per provider, and the files
 * that cost the most, over the last 24 hours or 30 days.
 */
export function TrafficPage() {
  const [range, setRange] = useState<TrafficRange>("24h");
  const traffic = useTraffic(range);
  return (
    <div className="page">
      <h1>Traffic</h1>
      <p className="muted">
        Bytes the Usenet providers sent, and to whom, counted as they come off the connection (what a provider counts against a quota); the
        server writes the counts every minute and keeps 90 days.
      </p>
      <div className="segmented" role="group" aria-label="Range">
        {ranges.map((r) => (
          <button key={r.value} type="button" aria-pressed={range === r.value} onClick={() => setRange(r.value)}>
            {r.label}
          </button>
        ))}
      </div>
      {traffic.error && (
        <p role="alert" className="error">
          Could not load the traffic: {traffic.error.message}
        </p>
      )}
      {traffic.data && <TrafficCards view={traffic.data} />}
    </div>
  );
}

function TrafficCards({ view }: { view: TrafficView }) {
  const period = view.range === "30d" ? "the last 30 days" : "the last 24 hours";
  if (view.consumers.length === 0) {
    return (
      <section className="card">
        <p className="muted" data-testid="traffic-empty">
          Nothing was fetched or served in {period}.
        </p>
      </section>
    );
  }
  return (
    <>
      <section className="card" aria-labelledby="traffic-chart-title">
        <h2 id="traffic-chart-title">Provider bytes by consumer</h2>
        <SeriesChart view={view} series={view.consumers} of="consumer" />
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th>Consumer</th>
                <th title="Bytes the providers sent for this consumer">From providers</th>
                <th title="Bytes of response bodies sent to this consumer">Served</th>
                <th title="Provider bytes per byte served">Cost ÷ served</th>
              </tr>
            </thead>
            <tbody>
              {view.consumers.map((c) => (
                <tr key={c.name} data-testid="traffic-consumer">
                  <td>{c.name}</td>
                  <td data-testid="traffic-received">{bytes(c.receivedTotal)}</td>
                  <td data-testid="traffic-served">{bytes(c.servedTotal)}</td>
                  <td>{costRatio(c.receivedTotal, c.servedTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card" aria-labelledby="traffic-providers-title">
        <h2 id="traffic-providers-title">By provider</h2>
        <SeriesChart view={view} series={view.providers} of="provider" />
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th>Provider</th>
                <th>Sent</th>
                <th>Share</th>
              </tr>
            </thead>
            <tbody>
              {view.providers.map((p) => {
                const all = view.providers.reduce((sum, x) => sum + x.receivedTotal, 0);
                return (
                  <tr key={p.name} data-testid="traffic-provider">
                    <td>{p.name}</td>
                    <td>{bytes(p.receivedTotal)}</td>
                    <td className="traffic-share">
                      <progress max={Math.max(1, all)} value={p.receivedTotal} aria-label={`${p.name}'s share`} />
                      {all > 0 ? Math.round((p.receivedTotal / all) * 100) : 0} %
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card" aria-labelledby="traffic-files-title">
        <h2 id="traffic-files-title">Files that cost the most</h2>
        <p className="muted small flush">
          Counted by day (UTC), as each read ends: since {new Date(view.filesFrom).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" })}.
        </p>
        {view.topFiles.length === 0 ? (
          <p className="muted">No file was read in {period}.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th>File</th>
                  <th title="Decoded bytes fetched from providers for its reads">Fetched</th>
                  <th>Served</th>
                  <th>Reads</th>
                </tr>
              </thead>
              <tbody>
                {view.topFiles.map((f) => (
                  <tr key={f.path} data-testid="traffic-file">
                    <td className="path">{f.path}</td>
                    <td>{bytes(f.fetchedBytes)}</td>
                    <td>{bytes(f.servedBytes)}</td>
                    <td>{f.reads.toLocaleString("en-US")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function SeriesChart({ view, series, of }: { view: TrafficView; series: TrafficSeries[]; of: "consumer" | "provider" }) {
  const names = legend(series);
  const bars = stackedBars(view.buckets, series);
  const width = 10;
  return (
    <figure className="traffic-chart">
      <svg viewBox={`0 0 ${bars.length * width} 100`} preserveAspectRatio="none" role="img" aria-label={`Provider bytes per ${view.range === "30d" ? "day" : "hour"}, by ${of}`} data-testid={`traffic-bars-${of}`}>
        {bars.map((bar, i) => {
          let y = 100;
          return (
            <g key={bar.at}>
              <title>{`${periodLabel(bar.at, view.bucketSeconds)}: ${bytes(bar.total)}`}</title>
              {bar.pieces.map((piece, k) => {
                const h = piece.height * 96;
                y -= h;
                return h > 0 ? <rect key={piece.name} x={i * width + 1} y={y} width={width - 2} height={h} className={`series-${k}`} data-series={piece.name} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <div className="traffic-axis muted small">
        <span>{periodLabel(bars[0]?.at ?? "", view.bucketSeconds, bars[bars.length - 1]?.at)}</span>
        <span>{periodLabel(bars[bars.length - 1]?.at ?? "", view.bucketSeconds)}</span>
      </div>
      <figcaption className="traffic-legend small">
        {names.map((name, k) => (
          <span key={name}>
            <span className={`swatch series-${k}`} aria-hidden="true" /> {name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
