import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { RatePoint } from "../api/live";
import { rate } from "../lib/format";

/** Bytes served and fetched per second over the last minutes (uPlot: small, fast, canvas). */
export function RateChart({ points }: { points: RatePoint[] }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const style = getComputedStyle(document.documentElement);
    const axis = { stroke: style.getPropertyValue("--muted").trim(), grid: { stroke: style.getPropertyValue("--border").trim() }, values: (_: uPlot, ticks: number[]) => ticks.map((t) => rate(t)) };
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 220,
        scales: { x: { time: true, range: (_u, min, max) => [Math.min(min, max - 60), max] }, y: { range: (_u, _min, max) => [0, Math.max(max, 1_000_000) * 1.1] } },
        axes: [{ stroke: axis.stroke, grid: axis.grid }, { ...axis, size: 80 }],
        series: [
          {},
          { label: "Served", stroke: style.getPropertyValue("--accent").trim(), width: 2, value: (_u, v) => (v == null ? "–" : rate(v)) },
          { label: "Fetched", stroke: "#f59e0b", width: 2, value: (_u, v) => (v == null ? "–" : rate(v)) },
        ],
        legend: { live: false },
      },
      [[], [], []],
      element,
    );
    chart.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setData([points.map((p) => p.at), points.map((p) => p.served), points.map((p) => p.fetched)]);
  }, [points]);

  // The gaps (silences in the feed) are counted on the element: the canvas cannot be read by a test.
  const gaps = points.reduce((n, p) => (p.served === null ? n + 1 : n), 0);
  return <div ref={container} className="chart" aria-label="Bytes served and fetched per second" role="img" data-gaps={gaps} data-points={points.length} data-testid="rate-chart" />;
}
