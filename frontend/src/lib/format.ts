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

/** A time left as people read it: "45 s", "3 min 20 s", "1 h 05 min", "2 d 3 h"; "–" when unknown. */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return "–";
  const total = Math.round(seconds);
  if (total < 60) return `${total} s`;
  const minutes = Math.floor(total / 60);
  if (minutes < 60) return `${minutes} min ${String(total % 60).padStart(2, "0")} s`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, "0")} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/**
 * A moment in the browser's time zone, the one format of the whole UI, short and sortable by eye:
 * "2025-03-07 14:05", with seconds "2025-03-07 14:05:09"; "–" for none.
 */
export function dateTime(iso: string | null | undefined, withSeconds = false): string {
  if (!iso) return "–";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "–";
  const two = (n: number) => String(n).padStart(2, "0");
  const minutes = `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
  return withSeconds ? `${minutes}:${two(date.getSeconds())}` : minutes;
}

/** The exact moment for a tooltip: ISO 8601 in UTC ("2025-03-07T13:05:09.120Z"); "" for none. */
export function isoTitle(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString();
}

/**
 * A moment relative to `now` (ms since the epoch): "just now", "12 s ago", "5 min ago", "3 h ago",
 * "2 d ago" before it, "in a moment", "in 40 s", "in 5 min", "in 3 h", "in 6 d" after it; "–" for none.
 */
export function relativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return "–";
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return "–";
  const seconds = Math.round(Math.abs(now - at) / 1000);
  // A check that just ran, or one due now, is not "in 0 s".
  if (seconds < 5) return at > now ? "in a moment" : "just now";
  let span: string;
  if (seconds < 60) span = `${seconds} s`;
  else if (seconds < 3600) span = `${Math.floor(seconds / 60)} min`;
  else if (seconds < 86_400) span = `${Math.floor(seconds / 3600)} h`;
  else span = `${Math.floor(seconds / 86_400)} d`;
  return at > now ? `in ${span}` : `${span} ago`;
}

/**
 * A moment known to be past (a check that ran, an error that happened) relative to `now`: as
 * `relativeTime`, but "just now" instead of "in a moment" when the browser's `now` lags the server.
 */
export function pastRelativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return "–";
  const at = new Date(iso).getTime();
  return relativeTime(iso, Number.isNaN(at) ? now : Math.max(now, at));
}
