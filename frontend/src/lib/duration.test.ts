import { describe, expect, it } from "vitest";
import { dateTime, duration } from "./format";

describe("duration", () => {
  it("says seconds, then minutes and seconds, hours and minutes, days and hours", () => {
    expect(duration(0)).toBe("0 s");
    expect(duration(44.6)).toBe("45 s");
    expect(duration(200)).toBe("3 min 20 s");
    expect(duration(3_900)).toBe("1 h 05 min");
    expect(duration(2 * 86_400 + 3 * 3_600 + 59)).toBe("2 d 3 h");
  });

  it("says nothing for an unknown or impossible time left", () => {
    expect(duration(null)).toBe("–");
    expect(duration(undefined)).toBe("–");
    expect(duration(-5)).toBe("–");
    expect(duration(Number.POSITIVE_INFINITY)).toBe("–");
  });
});

describe("dateTime", () => {
  it("writes the moment in the browser's zone, padded", () => {
    const local = new Date(2025, 2, 7, 4, 5, 9);
    expect(dateTime(local.toISOString())).toBe("2025-03-07 04:05");
  });

  it("says nothing for a missing or unreadable moment", () => {
    expect(dateTime(null)).toBe("–");
    expect(dateTime("not a date")).toBe("–");
  });
});
