import { Fragment } from "react";
import type { MountView } from "../api/types";
import { mountFacts, mountHeadline, mountStateClass, mountStateLabel } from "../lib/integrations";
import { useNow } from "../lib/useNow";

/** The managed rclone mount: its state as a pill, one sentence, and the figures that matter when something is wrong. */
export function MountStatus({ mount }: { mount: MountView }) {
  const now = useNow(1_000);
  const facts = mountFacts(mount, now);
  return (
    <div className="mount-status" data-testid="mount-status">
      <p className="flush">
        <span className={`pill ${mountStateClass(mount.state)}`} data-testid="mount-state">
          {mountStateLabel(mount.state)}
        </span>{" "}
        <span data-testid="mount-headline">{mountHeadline(mount, now)}</span>
      </p>
      {facts.length > 0 && (
        <dl className="facts mount-facts">
          {facts.map((f) => (
            <Fragment key={f.label}>
              <dt>{f.label}</dt>
              <dd data-testid={`mount-${f.label.toLowerCase().replace(/\s+/g, "-")}`}>{f.value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </div>
  );
}
