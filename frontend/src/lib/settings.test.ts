import { describe, expect, it } from "vitest";
import { provider } from "../testing/entities";
import type { ProviderTest, Setting } from "../api/types";
import {
  bytesHint,
  changedValues,
  groupBySection,
  fieldOfRefusal,
  fieldProblem,
  fieldProblems,
  initialValue,
  masked,
  placeholderOf,
  providerFacts,
  shownValue,
  sourceNote,
  stepLine,
  testFigures,
  webDavProblem,
} from "./settings";

function setting(key: string, overrides: Partial<Setting> = {}): Setting {
  return {
    key,
    section: "Streaming",
    label: key,
    help: "",
    type: "Number",
    nullable: false,
    min: null,
    max: null,
    choices: null,
    automatic: null,
    value: "1",
    stored: false,
    locked: false,
    source: "default",
    ...overrides,
  };
}


describe("groupBySection", () => {
  it("keeps the server's order within each section and every section present", () => {
    const groups = groupBySection([
      setting("b", { section: "Queue" }),
      setting("a", { section: "Connections" }),
      setting("c", { section: "Queue" }),
    ]);
    expect(groups.Queue.map((s) => s.key)).toEqual(["b", "c"]);
    expect(groups.Connections.map((s) => s.key)).toEqual(["a"]);
    expect(groups.WebDAV).toEqual([]);
    expect(Object.keys(groups)).toEqual(["Connections", "Bandwidth", "Streaming", "Disk cache", "Queue", "SABnzbd", "WebDAV", "Mount", "Health"]);
    // The Settings page shows a Health card only when the server lists settings in that section.
    expect(groups.Health).toEqual([]);
  });

  it("leaves out a section it does not know instead of failing", () => {
    const groups = groupBySection([setting("x", { section: "Elsewhere" as Setting["section"] })]);
    expect(Object.values(groups).flat()).toEqual([]);
  });
});

describe("initialValue and shownValue", () => {
  it("shows automatic as empty, checkboxes as true/false, and an edit over the value", () => {
    expect(initialValue(setting("q", { nullable: true, value: null }))).toBe("");
    expect(initialValue(setting("f", { type: "Boolean", value: "True" }))).toBe("true");
    expect(initialValue(setting("f", { type: "Boolean", value: null }))).toBe("false");
    expect(shownValue(setting("n", { value: "5" }), {})).toBe("5");
    expect(shownValue(setting("n", { value: "5" }), { n: "" })).toBe("");
  });
});

describe("changedValues", () => {
  const settings = [
    setting("Usenet:Limiter:QueueGuarantee", { nullable: true, value: null }),
    setting("Streaming:ConnectionsPerStream", { value: "20" }),
    setting("Streaming:ServeUnverifiedBytes", { type: "Boolean", value: "true" }),
    setting("NzbDav:MountPath", { type: "Text", value: "/mnt/nzbdav", locked: true }),
  ];

  it("sends only what differs from the value in effect, trimmed", () => {
    expect(changedValues(settings, { "Usenet:Limiter:QueueGuarantee": " 2 ", "Streaming:ConnectionsPerStream": "20" })).toEqual({
      "Usenet:Limiter:QueueGuarantee": "2",
    });
    expect(changedValues(settings, { "Streaming:ServeUnverifiedBytes": "false" })).toEqual({ "Streaming:ServeUnverifiedBytes": "false" });
  });

  it("sends an emptied nullable field as \"\" (automatic) and nothing when nothing was touched", () => {
    const set = [setting("q", { nullable: true, value: "3" })];
    expect(changedValues(set, { q: "" })).toEqual({ q: "" });
    expect(changedValues(set, {})).toEqual({});
  });

  it("never sends a locked setting", () => {
    expect(changedValues(settings, { "NzbDav:MountPath": "/elsewhere" })).toEqual({});
  });
});

describe("placeholderOf and sourceNote", () => {
  it("says what automatic means and who set a value", () => {
    expect(placeholderOf(setting("q", { automatic: "a tenth of the budget" }))).toBe("automatic: a tenth of the budget");
    expect(placeholderOf(setting("q"))).toBe("");
    expect(sourceNote(setting("q", { locked: true, source: "command line" }))).toBe("set by command line");
    expect(sourceNote(setting("q", { source: "settings.json" }))).toBe("from settings.json");
    expect(sourceNote(setting("q"))).toBeNull();
  });
});

describe("sizes in settings", () => {
  const budget = setting("Streaming:MemoryBudgetBytes", { type: "Bytes", label: "Memory budget", value: "117440512", min: 32 * 1024 ** 2, max: 64 * 1024 ** 3 });
  const limit = setting("Streaming:MaxReadAheadBytes", { type: "Bytes", label: "Read-ahead limit", value: null, nullable: true, min: 1, max: 1024 ** 3 });

  it("shows a byte count in units and hints the bytes a typed size reads as", () => {
    expect(initialValue(budget)).toBe("112 MiB");
    expect(initialValue(limit)).toBe("");
    expect(bytesHint("64MB")).toBe("67,108,864 bytes");
    expect(bytesHint("1.5 GiB")).toBe("1,610,612,736 bytes");
    expect(bytesHint("abc")).toBeNull();
    expect(bytesHint("")).toBeNull();
  });

  it("sends a size as its byte count, and nothing when it reads as the value in effect", () => {
    expect(changedValues([budget], { "Streaming:MemoryBudgetBytes": "1.5 GiB" })).toEqual({ "Streaming:MemoryBudgetBytes": "1610612736" });
    expect(changedValues([budget], { "Streaming:MemoryBudgetBytes": "112MB" })).toEqual({});
    expect(changedValues([limit], { "Streaming:MaxReadAheadBytes": "" })).toEqual({});
    expect(changedValues([limit], { "Streaming:MaxReadAheadBytes": "64m" })).toEqual({ "Streaming:MaxReadAheadBytes": "67108864" });
  });

  it("names the field and its range in units for a size that does not read or is out of range", () => {
    expect(fieldProblems([budget, limit], { "Streaming:MemoryBudgetBytes": "abc" })["Streaming:MemoryBudgetBytes"]).toMatch(/^Memory budget: 'abc' is not a size/);
    expect(fieldProblems([budget], { "Streaming:MemoryBudgetBytes": "1 MiB" })).toEqual({
      "Streaming:MemoryBudgetBytes": "Memory budget must be between 32 MiB and 64 GiB; 1 MiB is not.",
    });
    expect(fieldProblems([budget], { "Streaming:MemoryBudgetBytes": " " })).toEqual({ "Streaming:MemoryBudgetBytes": "Memory budget cannot be empty." });
    expect(fieldProblems([limit], { "Streaming:MaxReadAheadBytes": "" })).toEqual({});
    expect(fieldProblems([budget], { "Streaming:MemoryBudgetBytes": "64MB" })).toEqual({});
  });
});

describe("fieldProblem, one case per kind of field", () => {
  const jobs = setting("NzbDav:Queue:MaxConcurrentJobs", { label: "Jobs at once", type: "Number", min: 1, max: 16 });
  const guarantee = setting("Usenet:Limiter:QueueGuarantee", { label: "Queue guarantee", type: "Number", min: 0, nullable: true });
  const categories = setting("NzbDav:Categories", { label: "Categories", type: "List" });
  const mountPath = setting("NzbDav:MountPath", { label: "Mount path", type: "Text" });
  const publicUrl = setting("NzbDav:WebDav:PublicUrl", { label: "Public URL", type: "Text", nullable: true });
  const cacheSize = setting("Mount:VfsCacheMaxSize", { label: "VFS cache size", type: "Text" });

  it("words a number that is not one, or out of range, as the server does", () => {
    expect(fieldProblem(jobs, "4x")).toBe("Jobs at once must be a whole number; '4x' is not.");
    expect(fieldProblem(jobs, "2.5")).toBe("Jobs at once must be a whole number; '2.5' is not.");
    expect(fieldProblem(jobs, "99")).toBe("Jobs at once must be between 1 and 16; 99 is not.");
    expect(fieldProblem(guarantee, "-1")).toBe("Queue guarantee must be at least 0; -1 is not.");
    expect(fieldProblem(jobs, " 4 ")).toBeNull();
    expect(fieldProblem(guarantee, "")).toBeNull();
    expect(fieldProblem(jobs, "")).toBe("Jobs at once cannot be empty.");
  });

  it("refuses a text that is too long, or of the wrong shape, and a category that cannot be a name", () => {
    expect(fieldProblem(publicUrl, `https://example.com/${"a".repeat(2000)}`)).toBe("Public URL can have at most 1,024 characters; this has 2,020.");
    expect(fieldProblem(publicUrl, "example.com")).toBe("Public URL must be an http:// or https:// address; 'example.com' is not.");
    expect(fieldProblem(publicUrl, "https://dav.example.com/")).toBeNull();
    expect(fieldProblem(mountPath, "mnt/nzbdav")).toBe("Mount path must be an absolute path (starting with '/'); 'mnt/nzbdav' is not.");
    expect(fieldProblem(cacheSize, "lots")).toBe("VFS cache size must be a size in rclone's units, e.g. 20G, 512M or off; 'lots' is not.");
    expect(fieldProblem(cacheSize, "20G")).toBeNull();
    expect(fieldProblem(categories, "tv, ../etc")).toBe("Categories: '../etc' is not a usable name (letters, digits, '-', '_' and '.' only, at most 64).");
    expect(fieldProblem(categories, "tv, TV")).toBe("Categories: a name appears twice.");
    expect(fieldProblem(categories, "")).toBeNull();
  });

  it("finds the field a refusal names, the longest label first", () => {
    const start = setting("Streaming:StartReadAheadBytes", { label: "Read-ahead at start", type: "Bytes" });
    const ranged = setting("Streaming:RangedStartReadAheadBytes", { label: "Read-ahead at start (ranged)", type: "Bytes" });
    expect(fieldOfRefusal([start, ranged], "Read-ahead at start (ranged) must be between 1 B and 64 MiB; 1 GiB is not.")).toBe("Streaming:RangedStartReadAheadBytes");
    expect(fieldOfRefusal([start, ranged], "Read-ahead at start: 'x' is not a size")).toBe("Streaming:StartReadAheadBytes");
    expect(fieldOfRefusal([start], "The queue guarantee would leave streaming fewer than 2 connections.")).toBeNull();
  });
});

describe("providerFacts", () => {
  it("says the address, TLS, the login and the numbers in one line", () => {
    expect(providerFacts(provider)).toBe("news.example.com:563 · TLS · user me, password stored · 20 connections · priority 3 · pipeline 8 · 1 TiB a month from day 1");
    expect(providerFacts({ ...provider, useTls: true, allowUntrustedCertificate: true, user: null, hasPassword: false, monthlyQuotaBytes: null })).toBe(
      "news.example.com:563 · TLS, any certificate · no login · 20 connections · priority 3 · pipeline 8",
    );
    expect(providerFacts({ ...provider, monthlyQuotaBytes: null, maxBytesPerSecond: 20 * 1024 ** 2, dailyQuotaBytes: 50 * 1024 ** 3, windowQuotaBytes: 1024 ** 3, quotaWindowHours: 6 })).toContain(
      "pipeline 8 · at most 20 MiB/s · 50 GiB a day · 1 GiB per 6 h",
    );
    expect(providerFacts({ ...provider, useTls: false, port: 119 })).toContain("news.example.com:119 · no TLS · ");
  });
});

describe("test results", () => {
  const passed: ProviderTest = {
    ok: true,
    error: null,
    steps: [
      { step: "connect", ok: true, milliseconds: 9.7, detail: "127.0.0.1:119" },
      { step: "greeting and login", ok: false, milliseconds: 0, detail: "481 authentication failed" },
    ],
    greeting: "200 ready",
    roundTripMs: 1.11,
    articlesProbed: 6,
    articlesFound: 5,
    articlesPerSecond: 513.7,
  };

  it("marks each step and leaves out the 0 ms of a failed one", () => {
    expect(stepLine(passed.steps[0]!)).toBe("✓ connect · 9.7 ms · 127.0.0.1:119");
    expect(stepLine(passed.steps[1]!)).toBe("✗ greeting and login · 481 authentication failed");
  });

  it("lists the greeting, round trip and articles", () => {
    expect(testFigures(passed)).toEqual(["Greeting: 200 ready", "Round trip: 1.1 ms", "Articles: 5 of 6 found, 514 articles/s"]);
    expect(testFigures({ ...passed, greeting: null, roundTripMs: null, articlesProbed: 0 })).toEqual([]);
  });
});

describe("webDavProblem", () => {
  it("keeps the password when both fields are empty and checks a new one", () => {
    expect(webDavProblem("admin", "", "")).toBeNull();
    expect(webDavProblem(" ", "", "")).toMatch(/user name/);
    expect(webDavProblem("a:b", "", "")).toMatch(/without ':'/);
    expect(webDavProblem("admin", "", "x")).toMatch(/both fields/);
    expect(webDavProblem("admin", "short", "short")).toMatch(/at least 8/);
    expect(webDavProblem("admin", "long enough", "long enougH")).toMatch(/differ/);
    expect(webDavProblem("admin", "long enough", "long enough")).toBeNull();
  });
});

describe("masked", () => {
  it("hides every character and never shows fewer than 8 dots", () => {
    expect(masked("409b25bfa12e257fbcbc688d7d36221a")).toBe("•".repeat(32));
    expect(masked("ab")).toBe("•".repeat(8));
    expect(masked("409b")).not.toContain("4");
  });
});
