import { describe, expect, it } from "vitest";
import type { DiskCacheView, EconomyView } from "../api/live";
import { diskCacheFigures, economyFigures, ratio, share, streamEconomy } from "./economy";

const economy: EconomyView = {
  servedBytes: 1_500_000_000,
  fetchedBytes: 1_230_000_000,
  fetchedPerServed: 0.82,
  cacheBytes: 45_300_000,
  cacheHits: 37,
  cacheMisses: 63,
  cacheHitRate: 0.37,
  cacheHitBytes: 27_700_000,
  sharedFetches: 4,
  sharedFetchBytes: 3_000_000,
  readAheadBytes: 32_000_000,
  readAheadLimitBytes: 402_653_184,
  readAheadStreams: 1,
};

describe("ratio", () => {
  it("shows two decimals", () => {
    expect(ratio(1)).toBe("1.00");
    expect(ratio(0.4567)).toBe("0.46");
    expect(ratio(12.3)).toBe("12.30");
    expect(ratio(0)).toBe("0.00");
  });

  it("says nothing before a byte was sent or when the stream cannot say", () => {
    expect(ratio(null)).toBe("–");
    expect(ratio(undefined)).toBe("–");
    expect(ratio(Number.NaN)).toBe("–");
  });
});

describe("share", () => {
  it("is a whole percentage, never 0 % for a share that is not nothing", () => {
    expect(share(0.37)).toBe("37 %");
    expect(share(1)).toBe("100 %");
    expect(share(0)).toBe("0 %");
    expect(share(0.001)).toBe("<1 %");
    expect(share(null)).toBe("–");
  });
});

describe("streamEconomy", () => {
  it("formats a stream's fetched, from-cache and ratio cells", () => {
    expect(streamEconomy({ fetchedBytes: 12_400_000, sharedBytes: 0, fetchedPerSent: 1.234 })).toEqual({ fetched: "12.4 MB", shared: "0 B", ratio: "1.23" });
  });

  it("shows dashes for a stream that cannot say (a decrypting one) or has sent nothing", () => {
    expect(streamEconomy({ fetchedBytes: null, sharedBytes: null, fetchedPerSent: null })).toEqual({ fetched: "–", shared: "–", ratio: "–" });
    expect(streamEconomy({ fetchedBytes: 786_432, sharedBytes: 0, fetchedPerSent: null }).ratio).toBe("–");
  });
});

describe("economyFigures", () => {
  it("lists served, fetched, the ratio, the cache and its hit rate, shared fetches and read-ahead against its limit", () => {
    const figures = Object.fromEntries(economyFigures(economy).map((f) => [f.key, f]));
    expect(figures.served!.value).toBe("1.5 GB");
    expect(figures.fetched!.value).toBe("1.2 GB");
    expect(figures.ratio!.value).toBe("0.82");
    expect(figures.ratio!.title).toMatch(/per byte sent/);
    expect(figures.cache!.value).toBe("45.3 MB");
    expect(figures.cache!.detail).toBe("37 % hits (37 hits, 63 misses)");
    expect(figures.cache!.title).toContain("27.7 MB");
    expect(figures.shared!.value).toBe("4");
    expect(figures.shared!.detail).toBe("3.0 MB joined in flight");
    expect(figures["read-ahead"]!.value).toBe("32.0 MB of 403 MB");
    expect(figures["read-ahead"]!.detail).toBe("in use by 1 stream");
  });

  it("says so before anything was looked up or served", () => {
    const idle = economyFigures({ ...economy, servedBytes: 0, fetchedBytes: 0, fetchedPerServed: null, cacheHits: 0, cacheMisses: 0, cacheHitRate: null, readAheadStreams: 0 });
    const figures = Object.fromEntries(idle.map((f) => [f.key, f]));
    expect(figures.ratio!.value).toBe("–");
    expect(figures.cache!.detail).toBe("no lookups yet");
    expect(figures["read-ahead"]!.detail).toBe("in use by 0 streams");
  });
});

describe("diskCacheFigures", () => {
  const disk: DiskCacheView = {
    path: "/config/cache",
    bytes: 4_200_000_000,
    maxBytes: 10_737_418_240,
    probeBytes: 1_100_000_000,
    segments: 6_000,
    hits: 900,
    misses: 100,
    hitRate: 0.9,
    savedBytes: 630_000_000,
    writtenBytes: 4_500_000_000,
    evictedPlayback: 120,
    evictedProbes: 3,
    corruptReads: 1,
    droppedWrites: 0,
    skippedPlayback: 12,
    degraded: null,
  };

  it("shows the size against the limit, the hit ratio, the bytes saved and evictions by reason", () => {
    const all = diskCacheFigures(disk);
    const figure = (key: string) => {
      const found = all.find((f) => f.key === key);
      if (!found) throw new Error(`no figure ${key}`);
      return found;
    };
    const figures = { size: figure("size"), hits: figure("hits"), saved: figure("saved"), evictions: figure("evictions") };
    expect(figures.size.value).toBe("4.2 GB of 10.7 GB");
    expect(figures.size.meter).toEqual({ value: 4_200_000_000, max: 10_737_418_240 });
    expect(figures.size.detail).toBe("6,000 segments; 1.1 GB of files' heads and tails");
    expect(figures.hits.value).toBe("90 %");
    expect(figures.hits.detail).toBe("900 hits, 100 misses");
    expect(figures.saved.value).toBe("630 MB");
    expect(figures.evictions.value).toBe("123");
    expect(figures.evictions.detail).toBe("120 played, 3 heads and tails");
    expect(figures.evictions.title).toContain("1 segment failed their CRC");
    expect(figures.evictions.title).toContain("12 played segments were not written");
  });

  it("says when nothing was looked up yet", () => {
    const figures = diskCacheFigures({ ...disk, hits: 0, misses: 0, hitRate: null });
    expect(figures.find((f) => f.key === "hits")?.value).toBe("–");
    expect(figures.find((f) => f.key === "hits")?.detail).toBe("no lookups yet");
  });
});
