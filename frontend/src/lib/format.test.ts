import { describe, expect, it } from "vitest";
import { ago, milliseconds } from "./format";

describe("ago", () => {
  it("counts seconds, then minutes, then hours", () => {
    expect(ago(10_000, 13_000)).toBe("3 s ago");
    expect(ago(0, 59_400)).toBe("59 s ago");
    expect(ago(0, 60_000)).toBe("1 min ago");
    expect(ago(0, 3_599_000)).toBe("59 min ago");
    expect(ago(0, 7_200_000)).toBe("2 h ago");
  });

  it("never says a negative time when the clocks disagree", () => {
    expect(ago(5_000, 1_000)).toBe("0 s ago");
  });
});

describe("milliseconds", () => {
  it("keeps a decimal below 10 ms, rounds to whole ms below a second, then seconds", () => {
    expect(milliseconds(0.42)).toBe("0.4 ms");
    expect(milliseconds(12.4)).toBe("12 ms");
    expect(milliseconds(1_250)).toBe("1.3 s");
  });

  it("says nothing for a value that is not a duration", () => {
    expect(milliseconds(Number.NaN)).toBe("–");
    expect(milliseconds(-1)).toBe("–");
  });
});
