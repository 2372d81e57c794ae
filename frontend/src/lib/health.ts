import type { FileHealthBadge, HealthCheckRunning, HealthCounts, HealthFile, HealthFilter, HealthPatches, HealthPolicy, HealthState, Par2Running, RepairState } from "../api/types";
import { bytes, dateTime, duration, percent, rate, relativeTime } from "./format";

const stateLabels: Record<HealthState, string> = {
  healthy: "Healthy",
  degraded: "Degraded",
  broken: "Broken",
  unknown: "Unknown",
};

const repairLabels: Record<RepairState, string> = {
  none: "None",
  deferred: "Deferred",
  "action-needed": "Action needed",
  ignored: "Ignored",
  "dry-run": "Dry run",
  repairing: "Repairing",
};

/** "Healthy", "Degraded", …; a state this page does not know is shown as the server named it. */
export function stateLabel(state: string): string {
  return stateLabels[state as HealthState] ?? state;
}

/** "None", "Action needed", "Ignored", …; an unknown one as the server named it. */
export function repairLabel(repair: string): string {
  return repairLabels[repair as RepairState] ?? repair;
}

/** The filters the count cards offer, in the page's order, each with how many files it holds. */
export const healthFilters: readonly { value: HealthFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "healthy", label: "Healthy" },
  { value: "degraded", label: "Degraded" },
  { value: "broken", label: "Broken" },
  { value: "unknown", label: "Unknown" },
  { value: "action", label: "Action needed" },
];

/** How many files a filter holds; "all" is every state ("action needed" files are in their state too). */
export function filterCount(counts: HealthCounts, filter: HealthFilter): number {
  switch (filter) {
    case "all":
      return counts.healthy + counts.degraded + counts.broken + counts.unknown;
    case "action":
      return counts.actionNeeded;
    default:
      return counts[filter];
  }
}

/** The filter a page address asks for (`?state=`); anything else is "all". */
export function parseFilter(value: string | null): HealthFilter {
  return healthFilters.some((f) => f.value === value) ? (value as HealthFilter) : "all";
}

/** The Health page, filtered: "/health?state=degraded"; "all" is the page itself. */
export function healthPageUrl(filter: HealthFilter = "all"): string {
  return filter === "all" ? "/health" : `/health?${new URLSearchParams({ state: filter }).toString()}`;
}

/** Where a Files page badge leads: the Health page showing files in that state (or those waiting for the user). */
export function badgeFilter(badge: FileHealthBadge): HealthFilter {
  return badge === "action-needed" ? "action" : badge;
}

/** A Files page badge's text: "healthy", "degraded", "action needed". */
export function badgeLabel(badge: FileHealthBadge): string {
  return badge === "action-needed" ? "action needed" : badge;
}

/**
 * The holes a file's checks found: "2 missing · suspected: 1 missing, confirming at 14:05 ·
 * 3 unanswered", "none", or "not checked yet". Suspects are confirmed (or cleared) by the check
 * due at `nextCheckAt`; its local time is given when `now` is.
 */
export function describeHoles(
  file: Pick<HealthFile, "lastCheckedAt" | "missingSegments" | "suspectSegments" | "unknownSegments" | "nextCheckAt">,
  now?: number,
): string {
  if (!file.lastCheckedAt) return "not checked yet";
  const parts: string[] = [];
  if (file.missingSegments > 0) parts.push(`${file.missingSegments} missing`);
  if (file.suspectSegments > 0) parts.push(`suspected: ${file.suspectSegments} missing, ${confirming(file.nextCheckAt, now)}`);
  if (file.unknownSegments > 0) parts.push(`${file.unknownSegments} unanswered`);
  return parts.length > 0 ? parts.join(" · ") : "none";
}

/** "confirming at 14:05" (local time; with the date when not today), "confirming now" once due. */
function confirming(nextCheckAt: string, now: number | undefined): string {
  const at = new Date(nextCheckAt);
  if (Number.isNaN(at.getTime())) return "confirming at the next check";
  if (now !== undefined && at.getTime() <= now) return "confirming now";
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(at.getHours())}:${two(at.getMinutes())}`;
  const today = now === undefined || new Date(now).toDateString() === at.toDateString();
  return today ? `confirming at ${time}` : `confirming at ${dateTime(nextCheckAt)}`;
}

/**
 * A check running now: "Checking: 40 of 80 segments answered (38 present, 2 missing everywhere,
 * 0 unanswered)", and the share done for a progress bar.
 */
export function describeRunningCheck(running: HealthCheckRunning): { text: string; done: number; total: number } {
  const total = running.segments;
  const plural = total === 1 ? "segment" : "segments";
  const kinds = `${running.present.toLocaleString("en-US")} present, ${running.missing.toLocaleString("en-US")} missing everywhere, ${running.unknown.toLocaleString("en-US")} unanswered`;
  return {
    text: `Checking: ${running.answered.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${plural} answered (${kinds})`,
    done: running.answered,
    total,
  };
}

/** How much of the file the last check asked about: "80 of 80 segments checked". */
export function describeCoverage(file: Pick<HealthFile, "lastCheckedAt" | "checkedSegments" | "segments">): string {
  if (!file.lastCheckedAt) return "";
  return `${file.checkedSegments} of ${file.segments} segment${file.segments === 1 ? "" : "s"} checked`;
}

/** When the next check comes: "in 5 min", "due" (its time has come), "soon (urgent)" after a failed read. */
export function nextCheckLabel(file: Pick<HealthFile, "nextCheckAt" | "urgent">, now: number): string {
  if (file.urgent) return "soon (urgent)";
  const at = new Date(file.nextCheckAt).getTime();
  if (Number.isNaN(at)) return "–";
  return at <= now ? "due" : relativeTime(file.nextCheckAt, now);
}

/** The actions a file's row offers: a check always; a repair only when Broken; ignore for a file with holes, or un-ignore. */
export function fileActions(file: Pick<HealthFile, "state" | "repair">): { repair: boolean; par2: boolean; ignore: boolean; unignore: boolean } {
  const ignored = file.repair === "ignored";
  // While its release's PAR2 repair runs, that repair decides what comes next.
  const repairing = file.repair === "repairing";
  return {
    repair: file.state === "broken" && !repairing,
    par2: (file.state === "broken" || file.state === "degraded") && !repairing,
    ignore: !ignored && (file.state === "broken" || file.state === "degraded" || file.repair !== "none"),
    unignore: ignored,
  };
}

/** "5 min", "90 s", "2 h", "at once": a delay in minutes as the policy line says it. */
function minutesLabel(minutes: number): string {
  if (!(minutes > 0)) return "at once, by the next check";
  if (minutes < 2) return `${Math.round(minutes * 60)} s`;
  if (minutes < 120) return `${plainNumber(minutes)} min`;
  return `${plainNumber(minutes / 60)} h`;
}

/** A percentage as typed in the configuration, without float noise: 0.2 → "0.2", 1.25 → "1.25". */
function plainNumber(value: number): string {
  return String(Number(value.toFixed(3)));
}

/**
 * The policy in force in one line: "Scheduled checks: on · import check: on · repair: on · dry-run
 * · tolerance: ≤3 consecutive segments, ≤0.2 % of bytes · holes play as zeros · one repair per file in 7 days".
 */
export function describePolicy(policy: HealthPolicy): string {
  const onOff = (on: boolean) => (on ? "on" : "off");
  const parts = [`Scheduled checks: ${onOff(policy.scheduledChecks)}`, `import check: ${onOff(policy.importCheck)}`];
  if (policy.checkEverything) parts.push("every segment checked");
  parts.push(`repair: ${onOff(policy.repair)}`);
  if (policy.repair && policy.dryRun) parts.push("dry-run");
  const run = policy.maxConsecutiveMissing;
  parts.push(`tolerance: ≤${run} consecutive segment${run === 1 ? "" : "s"}, ≤${plainNumber(policy.maxMissingPercent)} % of bytes`);
  parts.push(`missing segments confirmed by a second check ${minutesLabel(policy.confirmDelayMinutes)} later`);
  parts.push(policy.zeroFillHoles ? "holes play as zeros" : "holes fail reads");
  if (policy.repair) {
    const days = plainNumber(policy.repairWindowDays);
    parts.push(`one repair per file in ${days} day${days === "1" ? "" : "s"}`);
  }
  return parts.join(" · ");
}

const auditLabels: Record<string, string> = {
  state: "state change",
  "check-now": "check asked",
  repair: "repair",
  "arr-call": "Sonarr/Radarr call",
  "repair-repaired": "repaired",
  "repair-dryrun": "repair (dry run)",
  "repair-deferred": "repair deferred",
  "repair-notfound": "not repaired",
  "action-needed": "action needed",
  ignore: "ignored",
  unignore: "un-ignored",
  removed: "removed",
  "par2-plan": "PAR2 plan",
  "par2-repaired": "repaired with PAR2",
  "par2-failed": "PAR2 failed",
  "par2-skipped": "PAR2 not used",
  "par2-deferred": "PAR2 deferred",
  "par2-dry-run": "PAR2 (dry run)",
  "par2-resumed": "PAR2 resumed",
};

/** An audit entry's action as words: "state change", "not repaired"; an unknown one with its dashes as spaces. */
export function auditLabel(action: string): string {
  return auditLabels[action] ?? action.replaceAll("-", " ");
}

/** The audit entry's tone, for its pill: a failed repair or a removal stands out, a repair in progress is highlighted. */
export function auditTone(action: string, detail: string): "failed" | "processing" | "completed" | "" {
  if (action === "repair-notfound" || action === "action-needed" || action === "removed" || action === "par2-failed") return "failed";
  if (action === "repair-repaired" || action === "par2-repaired") return "completed";
  if (
    action === "repair" ||
    action === "repair-deferred" ||
    action === "repair-dryrun" ||
    action === "par2-plan" ||
    action === "par2-deferred" ||
    action === "par2-dry-run" ||
    action === "par2-resumed"
  )
    return "processing";
  if (action === "state") {
    const to = /→\s*(\w+)/.exec(detail)?.[1]?.toLowerCase();
    if (to === "broken" || to === "degraded") return "failed";
    if (to === "healthy") return "completed";
  }
  return "";
}

/** The PAR2 button's label: what the repair would fetch, as the plan says. */
export function par2ButtonLabel(bytesToFetch: number): string {
  return `Repair with PAR2 (fetches ${bytes(bytesToFetch)})`;
}

/**
 * A PAR2 repair queued or running, in one line: "Repairing with PAR2: 45 % · 12.3 MB of 27.0 MB ·
 * 3.1 MB/s · 5 s left"; queued behind another: "PAR2 repair queued (another release's runs first)".
 */
export function describePar2(repair: Par2Running): { text: string; done: number; total: number } {
  const total = Math.max(repair.done, repair.planned);
  if (!repair.running) return { text: "PAR2 repair queued (another release's repair runs first)", done: 0, total: Math.max(1, total) };
  if (total === 0) return { text: "Repairing with PAR2: reading the recovery set's description…", done: 0, total: 1 };
  const parts = [`Repairing with PAR2: ${percent(repair.done, total)}`, `${bytes(repair.done)} of ${bytes(total)}`];
  if (repair.bytesPerSecond > 0) parts.push(rate(repair.bytesPerSecond));
  if (repair.remainingSeconds !== null && repair.remainingSeconds !== undefined) parts.push(`${duration(repair.remainingSeconds)} left`);
  return { text: parts.join(" · "), done: repair.done, total };
}

/** The byte ranges a file serves from its PAR2 patches: "bytes 49,000–51,999, 120,000–120,999"; the rest counted. */
export function describePatchRanges(patches: HealthPatches, shown = 5): string {
  const ranges = patches.ranges.slice(0, shown).map((r) => `${r.start.toLocaleString("en-US")}–${(r.start + r.length - 1).toLocaleString("en-US")}`);
  const more = patches.ranges.length - shown;
  return `bytes ${ranges.join(", ")}${more > 0 ? ` and ${more} more range${more === 1 ? "" : "s"}` : ""}`;
}

/** "3 segments (3.0 kB) rebuilt with PAR2 on 2026-12-06 05:40". */
export function describePatches(patches: HealthPatches): string {
  return `${patches.segments} segment${patches.segments === 1 ? "" : "s"} (${bytes(patches.bytes)}) rebuilt with PAR2 on ${dateTime(patches.repairedAt)}`;
}
