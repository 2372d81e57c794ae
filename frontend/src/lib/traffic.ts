import type { TrafficSeries } from "../api/types";

/** The consumers drawn one by one; the rest are summed as "others". */
export const chartedConsumers = 6;

export interface StackedBar {
  /** Start of the period (ISO). */
  at: string;
  /** Bytes received from providers in the period, all consumers. */
  total: number;
  /** One piece per charted consumer (and "others"), in legend order, with its share of the tallest bar. */
  pieces: { name: string; bytes: number; height: number }[];
}

/** The legend: the biggest consumers by bytes received, then "others" when there are more. */
export function legend(consumers: readonly TrafficSeries[]): string[] {
  const ranked = [...consumers].filter((c) => c.receivedTotal > 0).sort((a, b) => b.receivedTotal - a.receivedTotal);
  const names = ranked.slice(0, chartedConsumers).map((c) => c.name);
  return ranked.length > chartedConsumers ? [...names, "others"] : names;
}

/** The chart's bars: per period, provider bytes stacked by consumer, heights as a share (0–1) of the tallest period. */
export function stackedBars(buckets: readonly string[], consumers: readonly TrafficSeries[]): StackedBar[] {
  const names = legend(consumers);
  const charted = new Set(names);
  const totals = buckets.map((_, i) => consumers.reduce((sum, c) => sum + (c.received[i] ?? 0), 0));
  const tallest = Math.max(1, ...totals);
  return buckets.map((at, i) => ({
    at,
    total: totals[i] ?? 0,
    pieces: names.map((name) => {
      const bytes =
        name === "others"
          ? consumers.filter((c) => !charted.has(c.name)).reduce((sum, c) => sum + (c.received[i] ?? 0), 0)
          : (consumers.find((c) => c.name === name)?.received[i] ?? 0);
      return { name, bytes, height: bytes / tallest };
    }),
  }));
}

/**
 * A period's label: "14:00" for an hour ("Nov 28 14:00" when it is not on the day of `latest`), "Nov
 * 28" for a day, in the browser's time zone.
 */
export function periodLabel(at: string, bucketSeconds: number, latest?: string): string {
  const date = new Date(at);
  const day = date.toLocaleDateString("en-US", { month: "short", day: "numeric" });
  if (bucketSeconds >= 86_400) return day;
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  return latest !== undefined && new Date(latest).toDateString() !== date.toDateString() ? `${day} ${time}` : time;
}

/** Provider bytes per byte served, two decimals; "–" when nothing was served (queue, health checks). */
export function costRatio(received: number, served: number): string {
  return served > 0 ? (received / served).toFixed(2) : "–";
}
