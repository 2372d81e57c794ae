import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { recheckSession } from "./session";
import { apiPaths } from "./paths";
import type { components } from "./schema";
import type { MountView } from "./types";

/** One tick of GET /ui/api/live, typed from the server's OpenAPI document (see types.ts); `mount` is the managed rclone mount. */
export type DashboardSnapshot = Omit<components["schemas"]["DashboardSnapshot"], "mount"> & { mount: MountView };
export type StreamView = components["schemas"]["StreamView"];
export type ProviderView = components["schemas"]["ProviderView"];
export type PoolView = components["schemas"]["PoolView"];
export type EconomyView = components["schemas"]["EconomyView"];
export type DiskCacheView = components["schemas"]["DiskCacheView"];
export type BandwidthView = components["schemas"]["BandwidthView"];
export type NodeView = components["schemas"]["NodeView"];
export type NodeLeaseView = components["schemas"]["NodeLeaseView"];

export interface RatePoint {
  at: number;
  /** null marks a gap: no sample came for a while (the page slept, the feed dropped, the server restarted). */
  served: number | null;
  fetched: number | null;
}

export type LiveState = "connecting" | "live" | "reconnecting";

/** How many points the chart keeps: ten minutes at the default one-second tick. */
export const historyLength = 600;

/**
 * Subscribes to the server's live feed while the component is mounted. The browser's EventSource
 * reconnects by itself after a drop or a restart; the history survives a reconnect.
 */
export function useLiveFeed() {
  // The snapshot and the chart's points change together, in one update, so a render never shows one without the other.
  const [feed, setFeed] = useState<{ snapshot: DashboardSnapshot | null; history: RatePoint[] }>({ snapshot: null, history: [] });
  const [state, setState] = useState<LiveState>("connecting");

  const queryClient = useQueryClient();
  // Bumped to open a new feed after the browser gave one up for good.
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const source = new EventSource(apiPaths.live);
    let retry: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => setState("live");
    source.onerror = () => {
      setState("reconnecting");
      // The browser retries a dropped feed itself, but not one refused with an HTTP error (a 401
      // when the session ended): ask whether the session holds, and open a new feed later.
      if (source.readyState === EventSource.CLOSED) {
        void recheckSession(queryClient);
        retry = setTimeout(() => setAttempt((n) => n + 1), 2_000);
      }
    };
    source.onmessage = (event: MessageEvent<string>) => {
      const next = JSON.parse(event.data) as DashboardSnapshot;
      const point = { at: Date.parse(next.at) / 1000, served: next.servedBytesPerSecond, fetched: next.fetchedBytesPerSecond };
      setState("live");
      setFeed((current) => ({ snapshot: next, history: appendPoint(current.history, point) }));
    };
    return () => {
      clearTimeout(retry);
      source.close();
    };
  }, [queryClient, attempt]);

  return { snapshot: feed.snapshot, state, history: feed.history };
}

/**
 * Adds a point, keeping the last `historyLength`, and never the same instant twice (a reconnect
 * resends the latest). After a silence longer than three ticks (the spacing of the two points
 * before, at least one second) a gap point goes first, so the chart breaks its lines there instead
 * of drawing one across the time nothing was sampled. (The snapshot's own `intervalSeconds` is the
 * time since the sampler's previous sample, long after a silence, so it cannot tell.)
 */
export function appendPoint(points: RatePoint[], point: RatePoint): RatePoint[] {
  const last = points[points.length - 1];
  if (last && last.at >= point.at) return points;
  const before = points[points.length - 2];
  const tick = Math.max(1, before && before.served !== null && last ? last.at - before.at : 1);
  const gap = last !== undefined && last.served !== null && point.at - last.at > 3 * tick;
  const keep = historyLength - (gap ? 2 : 1);
  const next = points.length > keep ? points.slice(points.length - keep) : points.slice();
  if (gap) next.push({ at: last.at + tick, served: null, fetched: null });
  next.push(point);
  return next;
}
