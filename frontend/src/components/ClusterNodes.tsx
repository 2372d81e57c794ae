import type { NodeView } from "../api/live";
import { bytes } from "../lib/format";
import { cacheLine, heartbeatLine, leaseLine, leasedTotals } from "../lib/nodes";

/**
 * Every node on the library (PostgreSQL only): its streams, its own segment cache, and its share of
 * each provider's connection cap, as of its last heartbeat.
 */
export function ClusterNodes({ nodes }: { nodes: NodeView[] }) {
  const totals = leasedTotals(nodes);
  return (
    <section className="card" aria-labelledby="nodes-title" data-testid="cluster-nodes">
      <h2 id="nodes-title">Nodes</h2>
      <p className="muted small flush">
        The NzbDav nodes serving this library. Each provider&apos;s connection cap is shared among them by lease: together they never hold more
        sessions than the cap.
      </p>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th>Node</th>
              <th>Streams</th>
              <th title="The node's own segment cache (memory and disk): held of capacity">Cache</th>
              <th title="Sessions this node may hold to each provider, sessions open now, and what it asked the cluster for">Leases</th>
              <th>Heartbeat</th>
            </tr>
          </thead>
          <tbody>
            {nodes.map((node) => {
              const beat = heartbeatLine(node.heartbeatAgeSeconds);
              return (
                <tr key={node.id} data-testid={`node-${node.name}`}>
                  <td>
                    <strong>{node.name}</strong>
                    {node.self && <span className="pill small-pill">this node</span>}
                    <div className="muted small" title={node.version}>
                      {node.version.split("+")[0]}
                    </div>
                  </td>
                  <td data-testid={`node-${node.name}-streams`}>{node.streams}</td>
                  <td title={node.cacheCapacity > 0 ? `${bytes(node.cacheBytes)} held` : undefined}>{cacheLine(node)}</td>
                  <td data-testid={`node-${node.name}-leases`}>
                    {node.leases.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      node.leases.map((lease) => <div key={lease.provider}>{leaseLine(lease)}</div>)
                    )}
                  </td>
                  <td className={beat.late ? "error" : undefined}>{beat.text}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {totals.length > 0 && (
        <p className="muted small" data-testid="cluster-leased">
          {totals.map((t) => `${t.provider}: ${t.granted} leased, ${t.open} open across the nodes`).join(" · ")}
        </p>
      )}
    </section>
  );
}
