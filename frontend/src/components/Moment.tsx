import { dateTime, isoTitle, pastRelativeTime, relativeTime } from "../lib/format";

/**
 * A moment as the whole UI shows it: local time with the date ("2026-11-28 18:40"), or relative to
 * `now` when given ("5 min ago"); the exact ISO time in the tooltip and the machine-readable
 * attribute. A `past` moment (something that happened) is never said to be ahead: "just now", not
 * "in a moment", when the page's clock lags the server's.
 */
export function Moment({
  iso,
  now,
  past = false,
  seconds = false,
  testId,
}: {
  iso: string | null | undefined;
  now?: number;
  past?: boolean;
  seconds?: boolean;
  testId?: string;
}) {
  if (!iso) return <span data-testid={testId}>–</span>;
  const text = now === undefined ? dateTime(iso, seconds) : past ? pastRelativeTime(iso, now) : relativeTime(iso, now);
  const title = now === undefined ? isoTitle(iso) : `${dateTime(iso, true)} (${isoTitle(iso)})`;
  return (
    <time dateTime={iso} title={title} data-testid={testId}>
      {text}
    </time>
  );
}
