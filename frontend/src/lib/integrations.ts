import type { MountCheckResult, MountState, MountView } from "../api/types";
import { bytes, relativeTime } from "./format";

const stateLabels: Record<MountState, string> = {
  off: "off",
  starting: "starting",
  mounted: "mounted",
  failed: "failed",
  stopping: "stopping",
};

/** The pill's word: "mounted", "failed", "off", …; a state this page does not know as the server named it. */
export function mountStateLabel(state: string): string {
  return stateLabels[state as MountState] ?? state;
}

/** The pill's colour class: ok when mounted, a problem when failed, on the way when starting or stopping, plain when off. */
export function mountStateClass(state: string): string {
  if (state === "mounted") return "mount-ok";
  if (state === "failed") return "mount-failed";
  if (state === "starting" || state === "stopping") return "mount-busy";
  return "mount-off";
}

/** One sentence on where the managed mount is now. */
export function mountHeadline(mount: MountView, now: number): string {
  const since = relativeTime(mount.since, now);
  switch (mount.state) {
    case "off":
      return `NzbDav's managed mount is off (Mount:Enabled is false): mount ${mount.path} yourself, or turn it on in Settings → Mount.`;
    case "mounted":
      return since === "just now" || since.startsWith("in ") ? `Mounted at ${mount.path} just now.` : `Mounted at ${mount.path} for ${since.replace(/ ago$/, "")}.`;
    case "starting":
      return `Mounting ${mount.path}…`;
    case "stopping":
      return `Unmounting ${mount.path}…`;
    case "failed":
      return `Not mounted at ${mount.path}: the last attempt failed ${since}, and NzbDav tries again by itself. The last error says why.`;
    default:
      return `${mountStateLabel(mount.state)} at ${mount.path}`;
  }
}

export interface Fact {
  label: string;
  value: string;
}

/** The details under the headline: restarts, cache, rclone and its symlinks, the last error (kept after a successful restart). Nothing for a mount that is off and never ran. */
export function mountFacts(mount: MountView, now: number): Fact[] {
  if (mount.state === "off" && mount.restarts === 0 && !mount.lastError) return [];
  const facts: Fact[] = [
    { label: "Path", value: mount.path },
    { label: "Restarts", value: String(mount.restarts) },
    { label: "Cache", value: mount.cacheBytes == null ? "–" : bytes(mount.cacheBytes) },
  ];
  if (mount.rcloneVersion) facts.push({ label: "rclone", value: `${mount.rcloneVersion}, symlinks ${mount.links ? "on" : "off"}` });
  if (mount.lastError) facts.push({ label: "Last error", value: `${mount.lastError} (${relativeTime(mount.lastErrorAt, now)})` });
  return facts;
}

/** "All 7 checks passed." or "2 of 3 checks failed: Mounted, Library file." */
export function checkSummary(result: MountCheckResult): string {
  const failed = result.checks.filter((c) => !c.ok);
  if (result.checks.length === 0) return "Nothing was checked.";
  if (failed.length === 0) return result.checks.length === 1 ? "The check passed." : `All ${result.checks.length} checks passed.`;
  return `${failed.length} of ${result.checks.length} ${result.checks.length === 1 ? "check" : "checks"} failed: ${failed.map((c) => c.name).join(", ")}.`;
}

export interface Part {
  text: string;
  placeholder: boolean;
}

/** Splits a command around each `placeholder` in it, so the part the user must replace can be marked. */
export function splitPlaceholder(text: string, placeholder: string): Part[] {
  if (!placeholder) return [{ text, placeholder: false }];
  const parts: Part[] = [];
  let from = 0;
  for (let at = text.indexOf(placeholder); at >= 0; at = text.indexOf(placeholder, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), placeholder: false });
    parts.push({ text: placeholder, placeholder: true });
    from = at + placeholder.length;
  }
  if (from < text.length || parts.length === 0) parts.push({ text: text.slice(from), placeholder: false });
  return parts;
}
