import { useState, type ReactNode } from "react";

/**
 * A provider or a Sonarr/Radarr in its list: both are switched, edited and deleted in place the same
 * way, so they look and behave alike. One configured outside the web UI says where to change it.
 */
export function ListedItem({
  item,
  pills,
  facts,
  testIds,
  onToggle,
  toggling,
  onDelete,
  deleting,
  error,
  deleteQuestion,
  deleteLabel,
  editor,
}: {
  item: { name: string; source: string; enabled: boolean; editable: boolean };
  /** Shown between the name and the enabled pill. */
  pills?: ReactNode;
  facts: ReactNode;
  testIds: { state: string; source: string; facts?: string };
  /** Starts the switch's save; `settled` must run once it has an answer, either way. */
  onToggle: (enabled: boolean, settled: () => void) => void;
  toggling: boolean;
  /** Starts the delete; `settled` must run once it has an answer, either way. */
  onDelete: (settled: () => void) => void;
  deleting: boolean;
  error: Error | null;
  deleteQuestion: ReactNode;
  deleteLabel: ReactNode;
  editor: (close: () => void) => ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Set in the click itself: the mutation's pending state arrives a tick later, and a controlled
  // checkbox would snap back in between.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const enabled = wanted ?? item.enabled;

  return (
    <li className="provider" aria-label={item.name}>
      <div className="job-head">
        <span className="job-name">{item.name}</span>
        {pills}
        <span className={`pill ${enabled ? "completed" : "paused"}`} data-testid={testIds.state}>
          {enabled ? "enabled" : "disabled"}
        </span>
        <span className="pill" data-testid={testIds.source}>
          from {item.source}
        </span>
      </div>
      <div className="muted small provider-facts" data-testid={testIds.facts}>
        {facts}
      </div>
      {item.editable && !editing && (
        <div className="job-actions">
          <label className="inline check">
            <input
              type="checkbox"
              checked={enabled}
              disabled={toggling}
              onChange={(e) => {
                setWanted(e.target.checked);
                onToggle(e.target.checked, () => setWanted(null));
              }}
            />
            Enabled
          </label>
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          {!confirming && (
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {!item.editable && <p className="muted small flush">Read-only here: change it where it is configured ({item.source}).</p>}
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <span>{deleteQuestion}</span>
          <button type="button" className="danger" disabled={deleting} onClick={() => onDelete(() => setConfirming(false))}>
            {deleteLabel}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {editing && editor(() => setEditing(false))}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
    </li>
  );
}
