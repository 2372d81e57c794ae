import { describe, expect, it } from "vitest";
import type { TrafficSeries } from "../api/types";
import { costRatio, legend, periodLabel, stackedBars } from "./traffic";

const series = (name: string, received: number[], served: number[] = received.map(() => 0)): TrafficSeries => ({
  name,
  received,
  served,
  receivedTotal: received.reduce((a, b) => a + b, 0),
  servedTotal: served.reduce((a, b) => a + b, 0),
});

describe("legend", () => {
  it("ranks consumers by provider bytes and sums the ones past six as others", () => {
    const many = Array.from({ length: 8 }, (_, i) => series(`c${i}`, [i + 1]));
    expect(legend(many)).toEqual(["c7", "c6", "c5", "c4", "c3", "c2", "others"]);
  });

  it("leaves out consumers that caused no provider bytes", () => {
    expect(legend([series("plex", [5]), series("idle", [0], [10])])).toEqual(["plex"]);
  });
});

describe("stackedBars", () => {
  it("stacks each period's bytes by consumer, as shares of the tallest period", () => {
    const bars = stackedBars(["h0", "h1"], [series("plex", [100, 300]), series("queue", [100, 0])]);
    expect(bars.map((b) => b.total)).toEqual([200, 300]);
    expect(bars[1]?.pieces).toEqual([
      { name: "plex", bytes: 300, height: 1 },
      { name: "queue", bytes: 0, height: 0 },
    ]);
    expect(bars[0]?.pieces.map((p) => p.height)).toEqual([100 / 300, 100 / 300]);
  });

  it("draws empty periods flat instead of dividing by zero", () => {
    const bars = stackedBars(["h0"], [series("plex", [0])]);
    expect(bars[0]).toEqual({ at: "h0", total: 0, pieces: [] });
  });
});

describe("periodLabel and costRatio", () => {
  it("labels hours by time and days by date", () => {
    expect(periodLabel("2026-11-28T00:00:00Z", 86_400)).toMatch(/^Nov 2[78]$/);
    expect(periodLabel("2026-11-28T14:00:00Z", 3_600)).toMatch(/^\d\d:00$/);
    // The first hour of the last 24 is yesterday's: it says which day.
    expect(periodLabel("2026-11-27T10:00:00Z", 3_600, "2026-11-28T20:00:00Z")).toMatch(/^Nov 2[67] \d\d:00$/);
  });

  it("says how many provider bytes each served byte cost", () => {
    expect(costRatio(2_007, 1_000)).toBe("2.01");
    expect(costRatio(500, 0)).toBe("–");
  });
});
