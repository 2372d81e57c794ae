/** "3 s ago", "2 min ago", "1 h ago": how long ago `then` was, seen from `now` (both ms since the epoch). */
export function ago(then: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}

/** A duration in milliseconds as people read it: "0.4 ms", "12 ms", "1.3 s". */
export function milliseconds(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
