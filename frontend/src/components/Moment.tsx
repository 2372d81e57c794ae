import { dateTime, isoTitle, relativeTime } from "../lib/format";

/**
 * A moment as the whole UI shows it: local time with the date ("2026-11-28 18:40"), or relative to
 * `now` when given ("5 min ago"); the exact ISO time in the tooltip and the machine-readable
 * attribute.
 */
export function Moment({ iso, now, seconds = false, testId }: { iso: string | null | undefined; now?: number; seconds?: boolean; testId?: string }) {
  if (!iso) return <span data-testid={testId}>–</span>;
  const text = now === undefined ? dateTime(iso, seconds) : relativeTime(iso, now);
  const title = now === undefined ? isoTitle(iso) : `${dateTime(iso, true)} (${isoTitle(iso)})`;
  return (
    <time dateTime={iso} title={title} data-testid={testId}>
      {text}
    </time>
  );
}
