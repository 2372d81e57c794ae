import type { BandwidthView, ProviderView } from "../api/live";
import { rate, relativeTime } from "./format";

export type ProviderTone = "ok" | "warn" | "error";

export interface ProviderState {
  /** One word for the State cell: "ok", "failing", "down", "retrying", "quota". */
  label: string;
  tone: ProviderTone;
  /** Since when and what comes next, for a provider that is not ok; null while ok. */
  detail: string | null;
  /** The last error in the server's plain words: shown under a provider that is not ok, in the tooltip of one that recovered. */
  error: string | null;
  /** The tooltip of the State cell. */
  title: string;
}

/**
 * A provider's state as the dashboard words it, with times relative to the snapshot's own moment
 * (`now`, ms since the epoch) so that a browser clock that is off does not skew "since".
 */
export function providerState(
  p: Pick<ProviderView, "state" | "failingSince" | "retryAt" | "lastError" | "lastErrorAt"> & { quota?: string | null },
  now: number,
): ProviderState {
  const elapsed = p.failingSince ? relativeTime(p.failingSince, now) : "just now";
  const since = elapsed === "just now" || !elapsed.endsWith(" ago") ? "for a moment" : `for ${elapsed.replace(/ ago$/, "")}`;
  const last = p.lastError ? `Last error ${relativeTime(p.lastErrorAt, now)}: ${p.lastError}` : "No error since the server started.";
  switch (p.state) {
    case "down":
      return {
        label: "down",
        tone: "error",
        detail: `Down ${since}; not used until the next try ${p.retryAt ? relativeTime(p.retryAt, now) : "in a moment"}.`,
        error: p.lastError ?? null,
        title: "Repeated connection failures: the provider is skipped and other providers are asked instead until a trial connection works.",
      };
    case "retrying":
      return {
        label: "retrying",
        tone: "warn",
        detail: `Down ${since}; one trial connection is being made now.`,
        error: p.lastError ?? null,
        title: "After its pause the provider gets one trial connection; it is used again if that works.",
      };
    case "quota":
      return {
        label: "quota",
        tone: "warn",
        detail: `Not used: its ${p.quota ?? "byte allowance is spent"}. Other providers are asked meanwhile.`,
        error: null,
        title: "The provider sent its allowance of bytes for the period (Settings → provider's DailyQuotaBytes / MonthlyQuotaBytes).",
      };
    case "failing":
      return {
        label: "failing",
        tone: "warn",
        detail: `Connections failing ${since}; still in use.`,
        error: p.lastError ?? null,
        title: "Connections failed since the last one that worked; a few more and the provider is skipped for a while.",
      };
    default:
      return { label: "ok", tone: "ok", detail: null, error: null, title: last };
  }
}

/** A provider's role as the UI words it: "primary", "backup only", "block account". */
export function roleLabel(role: string): string {
  switch (role) {
    case "Primary":
      return "primary";
    case "BackupOnly":
      return "backup only";
    case "Block":
      return "block account";
    default:
      return role.toLowerCase();
  }
}

/** The dashboard's line on the provider bandwidth cap: what holds now, and whether it binds. */
export function bandwidthLine(view: BandwidthView): string {
  if (view.bytesPerSecond === null || view.bytesPerSecond === undefined) return "Bandwidth: full speed now, by the schedule.";
  const cap = `Bandwidth cap ${rate(view.bytesPerSecond)}`;
  if (!view.binds) return `${cap}: not reached.`;
  const waiting = view.waiting === 1 ? "1 read waits" : `${view.waiting} reads wait`;
  return `${cap}: reached; ${waiting} for its turn, playback first.`;
}
