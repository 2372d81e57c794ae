import type { DiskCacheView, EconomyView, StreamView } from "../api/live";
import { bytes } from "./format";

/** What "Fetched ÷ served" means, for the column's and the card's tooltip. */
export const fetchedPerServedHelp =
  "Decoded bytes fetched from Usenet providers per byte sent to the client. Above 1: read-ahead not sent yet, or fetches retried; below 1 when segments other readers had fetched were reused (segment cache, shared fetches).";

/** A fetched ÷ served ratio with two decimals, or "–" while nothing was sent (or the stream cannot say). */
export function ratio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return "–";
  return value.toFixed(2);
}

/** A share between 0 and 1 as a whole percentage; "<1 %" for a small share that is not nothing; "–" when unknown. */
export function share(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value) || value < 0) return "–";
  if (value > 0 && value < 0.005) return "<1 %";
  return `${Math.round(Math.min(1, value) * 100)} %`;
}

/** A stream's economy cells: fetched, taken from the cache or another reader's fetch, and fetched ÷ sent. */
export function streamEconomy(stream: Pick<StreamView, "fetchedBytes" | "sharedBytes" | "fetchedPerSent">) {
  return {
    fetched: stream.fetchedBytes == null ? "–" : bytes(stream.fetchedBytes),
    shared: stream.sharedBytes == null ? "–" : bytes(stream.sharedBytes),
    ratio: ratio(stream.fetchedPerSent),
  };
}

export interface EconomyFigure {
  /** Also the figure's test id: `economy-${key}`. */
  key: string;
  label: string;
  value: string;
  detail: string;
  title?: string;
  /** Drawn as a bar under the value (read-ahead against its limit). */
  meter?: { value: number; max: number };
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The "Provider economy" card's figures, totals since the server started (read-ahead: now). */
export function economyFigures(e: EconomyView): EconomyFigure[] {
  const lookups = e.cacheHits + e.cacheMisses;
  return [
    { key: "served", label: "Served", value: bytes(e.servedBytes), detail: "to players, in all" },
    {
      key: "fetched",
      label: "Fetched for streams",
      value: bytes(e.fetchedBytes),
      detail: "from providers (queue and health checks not counted)",
      title: "Decoded bytes fetched for players only. The Fetched tile above counts every fetch: the queue's, the health checks' and the streams'.",
    },
    { key: "ratio", label: "Fetched ÷ served", value: ratio(e.fetchedPerServed), detail: "since start", title: fetchedPerServedHelp },
    {
      key: "cache",
      label: "Segment cache",
      value: bytes(e.cacheBytes),
      detail: lookups === 0 ? "no lookups yet" : `${share(e.cacheHitRate)} hits (${count(e.cacheHits, "hit", "hits")}, ${count(e.cacheMisses, "miss", "misses")})`,
      title: `Decoded segments held now. Hit rate: hits ÷ (hits + misses); the hits saved ${bytes(e.cacheHitBytes)} of fetching.`,
    },
    {
      key: "shared",
      label: "Shared fetches",
      value: e.sharedFetches.toLocaleString("en-US"),
      detail: `${bytes(e.sharedFetchBytes)} joined in flight`,
      title: "Segments a stream took from another stream's fetch in flight instead of asking a provider again.",
    },
    {
      key: "read-ahead",
      label: "Read-ahead",
      value: `${bytes(e.readAheadBytes)} of ${bytes(e.readAheadLimitBytes)}`,
      detail: `in use by ${count(e.readAheadStreams, "stream", "streams")}`,
      title: "Decoded bytes every stream's read-ahead spans now, against the host-wide limit (the memory budget less the segment cache).",
      meter: { value: e.readAheadBytes, max: e.readAheadLimitBytes },
    },
  ];
}

/** The "Disk cache" card's figures (totals since the server started; size: now). */
export function diskCacheFigures(d: DiskCacheView): EconomyFigure[] {
  const lookups = d.hits + d.misses;
  const evicted = d.evictedPlayback + d.evictedProbes;
  return [
    {
      key: "size",
      label: "On disk",
      value: `${bytes(d.bytes)} of ${bytes(d.maxBytes)}`,
      detail: `${count(d.segments, "segment", "segments")}; ${bytes(d.probeBytes)} of files' heads and tails`,
      title: `Decoded segments kept in ${d.path}. Heads and tails (what scanners read) are kept longer than played segments.`,
      meter: { value: d.bytes, max: d.maxBytes },
    },
    {
      key: "hits",
      label: "Hit ratio",
      value: share(d.hitRate),
      detail: lookups === 0 ? "no lookups yet" : `${count(d.hits, "hit", "hits")}, ${count(d.misses, "miss", "misses")}`,
      title: "Segments the memory cache did not hold, read from disk instead of a provider: hits ÷ (hits + misses), since start.",
    },
    {
      key: "saved",
      label: "Provider bytes saved",
      value: bytes(d.savedBytes),
      detail: `${bytes(d.writtenBytes)} written since start`,
      title: "Decoded bytes read from disk that would otherwise have been fetched from a provider.",
    },
    {
      key: "evictions",
      label: "Evictions",
      value: evicted.toLocaleString("en-US"),
      detail: `${d.evictedPlayback.toLocaleString("en-US")} played, ${d.evictedProbes.toLocaleString("en-US")} heads and tails`,
      title: `Segments dropped to stay within the size: played ones first. ${count(d.corruptReads, "segment", "segments")} failed their CRC and were fetched again; ${count(d.droppedWrites, "write was", "writes were")} dropped (queue full or disk failing); ${count(d.skippedPlayback, "played segment was", "played segments were")} not written (played faster than the playback write rate).`,
    },
  ];
}
