import { describe, expect, it } from "vitest";
import type { NodeView } from "../api/live";
import { cacheLine, heartbeatLine, leaseLine, leasedTotals } from "./nodes";

const lease = { provider: "news", granted: 12, open: 9, streamingDemand: 0, queueDemand: 0, healthDemand: 0 };

function node(name: string, leases: NodeView["leases"]): NodeView {
  return { id: name, name, version: "1", self: false, startedAt: "2026-12-06T00:00:00Z", heartbeatAgeSeconds: 0.4, streams: 0, cacheBytes: 0, cacheCapacity: 0, leases };
}

describe("leaseLine", () => {
  it("says what is leased and open, and asks only when the node asked", () => {
    expect(leaseLine(lease)).toBe("news: 12 leased · 9 open");
    expect(leaseLine({ ...lease, streamingDemand: 14, healthDemand: 1 })).toBe("news: 12 leased · 9 open · asks 14 streaming, 1 health");
  });
});

describe("cacheLine", () => {
  it("shows bytes held of capacity, or none", () => {
    expect(cacheLine({ cacheBytes: 0, cacheCapacity: 0 })).toBe("none");
    expect(cacheLine({ cacheBytes: 1_500_000_000, cacheCapacity: 4_000_000_000 })).toBe("1.5 GB of 4.0 GB");
  });
});

describe("heartbeatLine", () => {
  it("is now while fresh and late past the bound", () => {
    expect(heartbeatLine(0.3)).toEqual({ text: "now", late: false });
    expect(heartbeatLine(3.42)).toEqual({ text: "3.4 s ago", late: true });
  });
});

describe("leasedTotals", () => {
  it("adds every node's lease of a provider, whatever the case of its name", () => {
    const totals = leasedTotals([node("a", [lease]), node("b", [{ ...lease, provider: "NEWS", granted: 8, open: 2 }]), node("c", [])]);
    expect(totals).toEqual([{ provider: "news", granted: 20, open: 11 }]);
  });
});
