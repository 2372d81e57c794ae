import { describe, expect, it } from "vitest";
import { ago, bytes, dateTime, isoTitle, milliseconds, pastRelativeTime, percent, rate, relativeTime } from "./format";

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

describe("bytes, rate and percent", () => {
  it("uses decimal units with one decimal below 100", () => {
    expect(bytes(0)).toBe("0 B");
    expect(bytes(999)).toBe("999 B");
    expect(bytes(1_500_000)).toBe("1.5 MB");
    expect(bytes(123_456_789)).toBe("123 MB");
    expect(bytes(12e12)).toBe("12.0 TB");
    expect(rate(41_900_000)).toBe("41.9 MB/s");
  });

  it("refuses what is not a size", () => {
    expect(bytes(-1)).toBe("–");
    expect(rate(Number.NaN)).toBe("–");
  });

  it("bounds percentages and says nothing of an empty whole", () => {
    expect(percent(1, 3)).toBe("33 %");
    expect(percent(5, 4)).toBe("100 %");
    expect(percent(1, 0)).toBe("–");
  });
});

describe("relativeTime", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");

  it("counts back in seconds, minutes, hours, then days", () => {
    expect(relativeTime("2026-11-25T11:59:48Z", now)).toBe("12 s ago");
    expect(relativeTime("2026-11-25T11:55:00Z", now)).toBe("5 min ago");
    expect(relativeTime("2026-11-25T09:00:00Z", now)).toBe("3 h ago");
    expect(relativeTime("2026-11-23T12:00:00Z", now)).toBe("2 d ago");
  });

  it("counts forward the same way", () => {
    expect(relativeTime("2026-11-25T12:00:40Z", now)).toBe("in 40 s");
    expect(relativeTime("2026-11-25T12:05:00Z", now)).toBe("in 5 min");
    expect(relativeTime("2026-12-01T12:00:00Z", now)).toBe("in 6 d");
  });

  it("says nothing for no time or one it cannot read", () => {
    expect(relativeTime(null, now)).toBe("–");
    expect(relativeTime("2026-11-25T12:00:00Z", now)).toBe("just now");
    expect(relativeTime("2026-11-25T11:59:57Z", now)).toBe("just now");
    expect(relativeTime("2026-11-25T12:00:02Z", now)).toBe("in a moment");
    expect(relativeTime("soon", now)).toBe("–");
  });
});

describe("pastRelativeTime", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");

  it("never puts a past moment ahead when the page's clock lags the server's", () => {
    expect(pastRelativeTime("2026-11-25T12:00:04Z", now)).toBe("just now");
    expect(pastRelativeTime("2026-11-25T12:10:00Z", now)).toBe("just now");
    expect(pastRelativeTime("2026-11-25T11:55:00Z", now)).toBe("5 min ago");
    expect(pastRelativeTime(null, now)).toBe("–");
    expect(pastRelativeTime("soon", now)).toBe("–");
  });
});

describe("dateTime and isoTitle", () => {
  it("write one local format with the date, seconds on request, and ISO for tooltips", () => {
    const iso = "2026-11-25T12:00:09.120Z";
    const local = new Date(iso);
    const two = (n: number) => String(n).padStart(2, "0");
    const expected = `${local.getFullYear()}-${two(local.getMonth() + 1)}-${two(local.getDate())} ${two(local.getHours())}:${two(local.getMinutes())}`;
    expect(dateTime(iso)).toBe(expected);
    expect(dateTime(iso, true)).toBe(`${expected}:09`);
    expect(isoTitle(iso)).toBe("2026-11-25T12:00:09.120Z");
    expect(dateTime(null)).toBe("–");
    expect(isoTitle("not a date")).toBe("");
  });
});
