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

const units = ["B", "KB", "MB", "GB", "TB"];

/** A byte count in decimal units, as players and providers quote them: "0 B", "512 B", "1.5 MB", "12 GB". */
export function bytes(value: number): string {
  if (!Number.isFinite(value) || value < 0) return "–";
  let unit = 0;
  let scaled = value;
  while (scaled >= 1000 && unit < units.length - 1) {
    scaled /= 1000;
    unit++;
  }
  const digits = unit === 0 || scaled >= 100 ? 0 : 1;
  return `${scaled.toFixed(digits)} ${units[unit]}`;
}

/** A rate in bytes per second: "0 B/s", "41.9 MB/s". */
export function rate(bytesPerSecond: number): string {
  const text = bytes(bytesPerSecond);
  return text === "–" ? text : `${text}/s`;
}

/** Part of a whole as a percentage with no decimals, or "–" for an empty whole. */
export function percent(part: number, whole: number): string {
  if (!(whole > 0)) return "–";
  return `${Math.min(100, Math.max(0, Math.round((part / whole) * 100)))} %`;
}
