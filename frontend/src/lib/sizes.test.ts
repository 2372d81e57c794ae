import { describe, expect, it } from "vitest";
import { formatSize, parseSize, sizeProblem } from "./sizes";

describe("parseSize", () => {
  it.each([
    ["67108864", 67_108_864],
    ["67,108,864", 67_108_864],
    ["64 MiB", 67_108_864],
    ["64MB", 67_108_864],
    ["64mb", 67_108_864],
    ["64 m", 67_108_864],
    ["1.5 GiB", 1_610_612_736],
    ["1.5GB", 1_610_612_736],
    ["0.5 KiB", 512],
    ["512 bytes", 512],
    ["0", 0],
    ["2 TiB", 2_199_023_255_552],
  ])("reads %s as %d bytes", (text, bytes) => {
    expect(parseSize(text)).toEqual({ bytes });
  });

  it.each(["abc", "", "-5", "64 MiBs", "64 PB", "1.2.3 MB", "MB", "99999999999999 TiB"])("refuses %j with what is accepted", (text) => {
    expect(parseSize(text).error).toMatch(/not a size|too large/);
  });
});

describe("formatSize", () => {
  it.each([
    [67_108_864, "64 MiB"],
    [117_440_512, "112 MiB"],
    [1_610_612_736, "1.5 GiB"],
    [1024, "1 KiB"],
    [1000, "1,000 B"],
    [1_000_000_000, "1,000,000,000 B"],
    [0, "0 B"],
  ])("writes %d as %s, which reads back the same", (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
    expect(parseSize(text)).toEqual({ bytes });
  });
});

describe("sizeProblem", () => {
  it("names the field and the range in units", () => {
    expect(sizeProblem("Largest NZB", "12", 1024, 1024 ** 3)).toBe("Largest NZB must be between 1 KiB and 1 GiB; 12 B is not.");
    expect(sizeProblem("Target bandwidth", "0", 1, null)).toBe("Target bandwidth must be at least 1 B; 0 B is not.");
    expect(sizeProblem("Largest NZB", "abc", 1024, 1024 ** 3)).toMatch(/^Largest NZB: 'abc' is not a size/);
    expect(sizeProblem("Largest NZB", "64MB", 1024, 1024 ** 3)).toBeNull();
  });
});
