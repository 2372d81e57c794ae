import { describe, expect, it } from "vitest";
import { bandwidthLine, providerState, roleLabel } from "./providers";

const now = Date.parse("2026-11-29T12:00:00Z");
const iso = (secondsFromNow: number) => new Date(now + secondsFromNow * 1000).toISOString();
const refused = "nothing accepts connections on news.example:119: check the host and port (119 without TLS, 563 with TLS).";

describe("providerState", () => {
  it("words a provider that works, keeping an old error in the tooltip", () => {
    expect(providerState({ state: "ok", failingSince: null, retryAt: null, lastError: null, lastErrorAt: null }, now)).toEqual({
      label: "ok",
      tone: "ok",
      detail: null,
      error: null,
      title: "No error since the server started.",
    });
    const recovered = providerState({ state: "ok", failingSince: null, retryAt: null, lastError: refused, lastErrorAt: iso(-600) }, now);
    expect(recovered.label).toBe("ok");
    expect(recovered.error).toBeNull();
    expect(recovered.title).toBe(`Last error 10 min ago: ${refused}`);
  });

  it("says since when a provider is down, when it is tried again, and why", () => {
    const down = providerState({ state: "down", failingSince: iso(-180), retryAt: iso(20), lastError: refused, lastErrorAt: iso(-10) }, now);
    expect(down).toMatchObject({ label: "down", tone: "error", error: refused });
    expect(down.detail).toBe("Down for 3 min; not used until the next try in 20 s.");
  });

  it("words a trial in flight and a provider failing below the threshold", () => {
    expect(providerState({ state: "retrying", failingSince: iso(-45), retryAt: iso(0), lastError: refused, lastErrorAt: iso(-45) }, now).detail).toBe(
      "Down for 45 s; one trial connection is being made now.",
    );
    const failing = providerState({ state: "failing", failingSince: iso(-2), retryAt: null, lastError: refused, lastErrorAt: iso(-2) }, now);
    expect(failing).toMatchObject({ label: "failing", tone: "warn", error: refused });
    expect(failing.detail).toBe("Connections failing for a moment; still in use.");
  });

  it("says a provider at its quota is not used, and until when", () => {
    const quota = providerState(
      { state: "quota", failingSince: null, retryAt: null, lastError: null, lastErrorAt: null, quota: "daily quota of 1.0 GB reached (1.0 GB today); it resets at 00:00 UTC" },
      now,
    );
    expect(quota.label).toBe("quota");
    expect(quota.tone).toBe("warn");
    expect(quota.detail).toBe("Not used: its daily quota of 1.0 GB reached (1.0 GB today); it resets at 00:00 UTC. Other providers are asked meanwhile.");
  });
});

describe("roleLabel", () => {
  it("words each role as the dashboard and the settings show it", () => {
    expect(roleLabel("Primary")).toBe("primary");
    expect(roleLabel("BackupOnly")).toBe("backup only");
    expect(roleLabel("Block")).toBe("block account");
  });
});

describe("bandwidthLine", () => {
  it("says the cap in force and whether reads wait for it", () => {
    expect(bandwidthLine({ bytesPerSecond: 50_000_000, binds: true, waiting: 12, waitedReads: 900 })).toBe("Bandwidth cap 50.0 MB/s: reached; 12 reads wait for its turn, playback first.");
    expect(bandwidthLine({ bytesPerSecond: 50_000_000, binds: true, waiting: 1, waitedReads: 900 })).toContain("1 read waits");
    expect(bandwidthLine({ bytesPerSecond: 20_971_520, binds: false, waiting: 0, waitedReads: 0 })).toMatch(/^Bandwidth cap 21(\.0)? MB\/s: not reached\.$/);
    expect(bandwidthLine({ bytesPerSecond: null, binds: false, waiting: 0, waitedReads: 0 })).toBe("Bandwidth: full speed now, by the schedule.");
  });
});
