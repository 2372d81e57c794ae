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

  it("keeps only the last historyLength points", () => {
    let points: RatePoint[] = [];
    for (let i = 1; i <= historyLength + 25; i++) points = appendPoint(points, point(i));
    expect(points).toHaveLength(historyLength);
    expect(points[0]!.at).toBe(26);
    expect(points[points.length - 1]!.at).toBe(historyLength + 25);
  });
});
