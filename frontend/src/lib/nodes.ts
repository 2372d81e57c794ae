import type { NodeLeaseView, NodeView } from "../api/live";
import { bytes } from "./format";

/** "12 of 20 leased · 9 open", and what the node asked for by kind when it asked for anything. */
export function leaseLine(lease: NodeLeaseView): string {
  const asked = [
    lease.streamingDemand > 0 ? `${lease.streamingDemand} streaming` : null,
    lease.queueDemand > 0 ? `${lease.queueDemand} queue` : null,
    lease.healthDemand > 0 ? `${lease.healthDemand} health` : null,
  ].filter((part): part is string => part !== null);
  return `${lease.provider}: ${lease.granted} leased · ${lease.open} open${asked.length > 0 ? ` · asks ${asked.join(", ")}` : ""}`;
}

/** "1.2 GB of 8 GB", or "none" for a node without a segment cache. */
export function cacheLine(node: Pick<NodeView, "cacheBytes" | "cacheCapacity">): string {
  if (node.cacheCapacity <= 0) return node.cacheBytes > 0 ? bytes(node.cacheBytes) : "none";
  return `${bytes(node.cacheBytes)} of ${bytes(node.cacheCapacity)}`;
}

/** How fresh the node's figures are: "now" within two seconds, else "3.4 s ago"; late beyond `late` seconds. */
export function heartbeatLine(ageSeconds: number, late = 2.5): { text: string; late: boolean } {
  return { text: ageSeconds < 2 ? "now" : `${ageSeconds.toFixed(1)} s ago`, late: ageSeconds > late };
}

/** Sessions leased to every node for one provider, as the provider sees them at most. */
export function leasedTotals(nodes: NodeView[]): { provider: string; granted: number; open: number }[] {
  const totals = new Map<string, { provider: string; granted: number; open: number }>();
  for (const node of nodes) {
    for (const lease of node.leases) {
      const key = lease.provider.toLowerCase();
      const total = totals.get(key) ?? { provider: lease.provider, granted: 0, open: 0 };
      total.granted += lease.granted;
      total.open += lease.open;
      totals.set(key, total);
    }
  }
  return [...totals.values()];
}
