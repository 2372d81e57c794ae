import { describe, expect, it } from "vitest";
import { appendPoint, historyLength, type RatePoint } from "./live";

const point = (at: number): RatePoint => ({ at, served: at * 10, fetched: at * 11 });

describe("appendPoint", () => {
  it("keeps points in time order and ignores a repeated instant", () => {
    let points = appendPoint([], point(1));
    points = appendPoint(points, point(2));
    points = appendPoint(points, point(2));
    points = appendPoint(points, point(1));
    expect(points.map((p) => p.at)).toEqual([1, 2]);
  });

  it("marks a silence longer than three ticks with a gap, so the chart breaks its lines there", () => {
    let points = appendPoint([], point(10));
    points = appendPoint(points, point(11));
    points = appendPoint(points, point(14)); // three ticks: a slow tick, not a gap
    points = appendPoint(points, point(15));
    points = appendPoint(points, point(600)); // the page slept for ten minutes
    expect(points.map((p) => [p.at, p.served])).toEqual([
      [10, 100],
      [11, 110],
      [14, 140],
      [15, 150],
      [16, null],
      [600, 6000],
    ]);
    // Measured in the feed's own ticks: at 5 s a tick, 12 s is no gap, 16 s is.
    expect(appendPoint([point(0), point(5)], point(17)).map((p) => p.served)).toEqual([0, 50, 170]);
    expect(appendPoint([point(0), point(5)], point(21)).map((p) => p.served)).toEqual([0, 50, null, 210]);
    // After a gap the next point is not measured against it.
    expect(appendPoint(points, point(601)).map((p) => p.at).slice(-2)).toEqual([600, 601]);
  });

  it("keeps only the last historyLength points", () => {
    let points: RatePoint[] = [];
    for (let i = 1; i <= historyLength + 25; i++) points = appendPoint(points, point(i));
    expect(points).toHaveLength(historyLength);
    expect(points[0]!.at).toBe(26);
    expect(points[points.length - 1]!.at).toBe(historyLength + 25);
  });
});
