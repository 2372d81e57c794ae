import { describe, expect, it } from "vitest";
import type { HealthCounts, HealthFile, HealthPolicy } from "../api/types";
import {
  auditLabel,
  auditTone,
  badgeFilter,
  badgeLabel,
  describeCoverage,
  describeHoles,
  describePolicy,
  describeRunningCheck,
  describePar2,
  describePatchRanges,
  describePatches,
  fileActions,
  par2ButtonLabel,
  filterCount,
  healthPageUrl,
  nextCheckLabel,
  parseFilter,
  repairLabel,
  stateLabel,
} from "./health";

const now = Date.parse("2026-11-25T12:00:00Z");

function file(overrides: Partial<HealthFile> = {}): HealthFile {
  return {
    id: "0b7c5e4e-1111-2222-3333-444455556666",
    path: "/content/tv/Show.S01E01/Show.S01E01.mkv",
    name: "Show.S01E01.mkv",
    size: 20 * 1024 * 1024,
    state: "healthy",
    repair: "none",
    lastCheckedAt: "2026-11-25T11:58:00Z",
    nextCheckAt: "2026-11-25T13:00:00Z",
    urgent: false,
    segments: 80,
    checkedSegments: 80,
    unknownSegments: 0,
    missingSegments: 0,
    suspectSegments: 0,
    detail: null,
    repairMessage: null,
    lastRepairAt: null,
    repairAttempts: 0,
    checking: null,
    par2: null,
    patches: null,
    ...overrides,
  };
}

const policy: HealthPolicy = {
  scheduledChecks: true,
  importCheck: true,
  repair: true,
  dryRun: false,
  checkEverything: false,
  maxConsecutiveMissing: 3,
  maxMissingPercent: 0.2,
  zeroFillHoles: true,
  repairWindowDays: 7,
  confirmDelayMinutes: 5,
};

describe("labels", () => {
  it("name states and repairs as the page shows them, and pass through what they do not know", () => {
    expect(["healthy", "degraded", "broken", "unknown"].map(stateLabel)).toEqual(["Healthy", "Degraded", "Broken", "Unknown"]);
    expect(["none", "deferred", "action-needed", "ignored", "dry-run"].map(repairLabel)).toEqual(["None", "Deferred", "Action needed", "Ignored", "Dry run"]);
    expect(stateLabel("quarantined")).toBe("quarantined");
    expect(repairLabel("later")).toBe("later");
  });

  it("name audit actions in words", () => {
    expect(auditLabel("state")).toBe("state change");
    expect(auditLabel("repair-notfound")).toBe("not repaired");
    expect(auditLabel("arr-call")).toBe("Sonarr/Radarr call");
    expect(auditLabel("something-new")).toBe("something new");
  });

  it("colour an audit entry by what it means", () => {
    expect(auditTone("state", "Unknown → Broken: 11 of 80 segments missing")).toBe("failed");
    expect(auditTone("state", "Unknown → Healthy: all segments asked about are present")).toBe("completed");
    expect(auditTone("state", "Healthy → Unknown: 1 segment(s) answered 430")).toBe("");
    expect(auditTone("repair-notfound", "No Sonarr or Radarr is configured")).toBe("failed");
    expect(auditTone("repair", "asking Sonarr/Radarr")).toBe("processing");
    expect(auditTone("check-now", "Full check asked from the UI.")).toBe("");
  });
});

describe("describeHoles", () => {
  // The confirming check's local time, as the browser shows it.
  const hhmm = (iso: string) => {
    const d = new Date(iso);
    return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  };

  it("counts confirmed holes, those waiting to be confirmed (and when) and unanswered segments", () => {
    const confirmAt = "2026-11-25T12:05:00Z";
    expect(describeHoles(file({ missingSegments: 2, suspectSegments: 1, nextCheckAt: confirmAt }), now)).toBe(
      `2 missing · suspected: 1 missing, confirming at ${hhmm(confirmAt)}`,
    );
    expect(describeHoles(file({ suspectSegments: 80, nextCheckAt: confirmAt }), now)).toBe(`suspected: 80 missing, confirming at ${hhmm(confirmAt)}`);
    expect(describeHoles(file({ suspectSegments: 80, nextCheckAt: "2026-11-25T11:59:00Z" }), now)).toBe("suspected: 80 missing, confirming now");
    expect(describeHoles(file({ suspectSegments: 3, nextCheckAt: "2026-11-27T12:05:00Z" }), now)).toMatch(/^suspected: 3 missing, confirming at 2026-11-2\d \d\d:\d\d$/);
    expect(describeHoles(file({ missingSegments: 1, unknownSegments: 3 }))).toBe("1 missing · 3 unanswered");
  });

  it("words a running check's progress", () => {
    expect(describeRunningCheck({ segments: 80, answered: 40, present: 38, missing: 2, unknown: 0 })).toEqual({
      text: "Checking: 40 of 80 segments answered (38 present, 2 missing everywhere, 0 unanswered)",
      done: 40,
      total: 80,
    });
    expect(describeRunningCheck({ segments: 1, answered: 0, present: 0, missing: 0, unknown: 0 }).text).toBe(
      "Checking: 0 of 1 segment answered (0 present, 0 missing everywhere, 0 unanswered)",
    );
  });

  it("says none for a whole file, and that a file never checked is not known", () => {
    expect(describeHoles(file())).toBe("none");
    expect(describeHoles(file({ lastCheckedAt: null }))).toBe("not checked yet");
  });

  it("says how much the last check covered", () => {
    expect(describeCoverage(file({ checkedSegments: 12 }))).toBe("12 of 80 segments checked");
    expect(describeCoverage(file({ segments: 1, checkedSegments: 1 }))).toBe("1 of 1 segment checked");
    expect(describeCoverage(file({ lastCheckedAt: null }))).toBe("");
  });
});

describe("nextCheckLabel", () => {
  it("says when, that it is due, or that a failed read made it urgent", () => {
    expect(nextCheckLabel(file(), now)).toBe("in 1 h");
    expect(nextCheckLabel(file({ nextCheckAt: "2026-11-25T11:59:00Z" }), now)).toBe("due");
    expect(nextCheckLabel(file({ urgent: true }), now)).toBe("soon (urgent)");
    expect(nextCheckLabel(file({ nextCheckAt: "not a date" }), now)).toBe("–");
  });
});

describe("fileActions", () => {
  it("offers a repair only for a broken file", () => {
    expect(fileActions(file({ state: "broken" })).repair).toBe(true);
    expect(fileActions(file({ state: "degraded" })).repair).toBe(false);
    expect(fileActions(file()).repair).toBe(false);
  });

  it("offers ignore for a file with holes or a repair under way, un-ignore once ignored", () => {
    expect(fileActions(file({ state: "broken", repair: "action-needed" }))).toEqual({ repair: true, par2: true, ignore: true, unignore: false });
    expect(fileActions(file({ state: "degraded" }))).toEqual({ repair: false, par2: true, ignore: true, unignore: false });
    expect(fileActions(file())).toEqual({ repair: false, par2: false, ignore: false, unignore: false });
    expect(fileActions(file({ state: "broken", repair: "ignored" }))).toEqual({ repair: true, par2: true, ignore: false, unignore: true });
  });

  it("offers PAR2 for any file with confirmed holes, Sonarr only for a broken one", () => {
    expect(fileActions(file({ state: "degraded" })).par2).toBe(true);
    expect(fileActions(file({ state: "unknown" })).par2).toBe(false);
    expect(par2ButtonLabel(1_500_000_000)).toMatch(/^Repair with PAR2 \(fetches 1\.\d+ GB\)$/);
  });
});

describe("filters", () => {
  const counts: HealthCounts = { healthy: 5, degraded: 2, broken: 1, unknown: 3, actionNeeded: 1 };

  it("count every state for all, and the files waiting for the user for action", () => {
    expect(filterCount(counts, "all")).toBe(11);
    expect(filterCount(counts, "broken")).toBe(1);
    expect(filterCount(counts, "action")).toBe(1);
  });

  it("read the page's address, falling back to all", () => {
    expect(parseFilter("degraded")).toBe("degraded");
    expect(parseFilter("action")).toBe("action");
    expect(parseFilter("action-needed")).toBe("all");
    expect(parseFilter(null)).toBe("all");
  });

  it("link a Files page badge to the Health page in that state", () => {
    expect(healthPageUrl()).toBe("/health");
    expect(healthPageUrl(badgeFilter("degraded"))).toBe("/health?state=degraded");
    expect(healthPageUrl(badgeFilter("action-needed"))).toBe("/health?state=action");
    expect(badgeLabel("action-needed")).toBe("action needed");
    expect(badgeLabel("broken")).toBe("broken");
  });
});

describe("describePolicy", () => {
  it("says the policy in one line", () => {
    expect(describePolicy(policy)).toBe(
      "Scheduled checks: on · import check: on · repair: on · tolerance: ≤3 consecutive segments, ≤0.2 % of bytes · missing segments confirmed by a second check 5 min later · holes play as zeros · one repair per file in 7 days",
    );
  });

  it("names dry-run, checking everything, no repair and holes that fail reads", () => {
    expect(describePolicy({ ...policy, dryRun: true, checkEverything: true, maxConsecutiveMissing: 1, repairWindowDays: 1 })).toBe(
      "Scheduled checks: on · import check: on · every segment checked · repair: on · dry-run · tolerance: ≤1 consecutive segment, ≤0.2 % of bytes · missing segments confirmed by a second check 5 min later · holes play as zeros · one repair per file in 1 day",
    );
    expect(describePolicy({ ...policy, scheduledChecks: false, repair: false, dryRun: true, zeroFillHoles: false, maxMissingPercent: 1.0000001 })).toBe(
      "Scheduled checks: off · import check: on · repair: off · tolerance: ≤3 consecutive segments, ≤1 % of bytes · missing segments confirmed by a second check 5 min later · holes fail reads",
    );
  });
});

describe("PAR2 repair progress and patches", () => {
  it("says how far a running repair got, its rate and the time left at it", () => {
    expect(describePar2({ running: true, done: 12_300_000, planned: 27_000_000, bytesPerSecond: 3_100_000, remainingSeconds: 4.7 })).toEqual({
      text: "Repairing with PAR2: 46 % · 12.3 MB of 27.0 MB · 3.1 MB/s · 5 s left",
      done: 12_300_000,
      total: 27_000_000,
    });
  });

  it("says a repair waits behind another, and one not yet planned reads the description", () => {
    expect(describePar2({ running: false, done: 0, planned: 5_000, bytesPerSecond: 0, remainingSeconds: null }).text).toBe("PAR2 repair queued (another release's repair runs first)");
    expect(describePar2({ running: true, done: 0, planned: 0, bytesPerSecond: 0, remainingSeconds: null }).text).toBe(
      "Repairing with PAR2: reading the recovery set's description…",
    );
  });

  it("never shows more than 100 % when a retry reads past the plan", () => {
    expect(describePar2({ running: true, done: 30, planned: 20, bytesPerSecond: 0, remainingSeconds: null }).text).toBe("Repairing with PAR2: 100 % · 30 B of 30 B");
  });

  it("lists a file's patched byte ranges, the first few and how many more", () => {
    const patches = {
      segments: 4,
      bytes: 4_000,
      repairedAt: "2026-12-06T05:40:00Z",
      ranges: [
        { start: 49_000, length: 3_000 },
        { start: 119_000, length: 1_000 },
        { start: 150_000, length: 10 },
      ],
    };
    expect(describePatchRanges(patches)).toBe("bytes 49,000–51,999, 119,000–119,999, 150,000–150,009");
    expect(describePatchRanges(patches, 1)).toBe("bytes 49,000–51,999 and 2 more ranges");
    expect(describePatches(patches)).toMatch(/^4 segments \(4\.0 KB\) rebuilt with PAR2 on 2026-12-06 \d\d:\d\d$/);
  });

  it("offers neither PAR2 nor Sonarr while the release's repair runs", () => {
    expect(fileActions(file({ state: "broken", repair: "repairing" }))).toMatchObject({ repair: false, par2: false, ignore: true });
  });
});
