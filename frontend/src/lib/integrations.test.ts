import { describe, expect, it } from "vitest";
import type { MountView } from "../api/types";
import { checkSummary, mountFacts, mountHeadline, mountStateClass, mountStateLabel, splitPlaceholder } from "./integrations";

const now = Date.parse("2026-11-26T12:00:00Z");

function mount(overrides: Partial<MountView> = {}): MountView {
  return {
    enabled: true,
    state: "mounted",
    path: "/mnt/nzbdav",
    since: "2026-11-26T11:57:00Z",
    lastError: null,
    lastErrorAt: null,
    restarts: 0,
    rcloneVersion: "v1.71.0",
    links: true,
    cacheBytes: 1_500_000,
    ...overrides,
  };
}

describe("the mount's state", () => {
  it("names each state and colours it: ok, a problem, on the way, plain", () => {
    expect(["mounted", "failed", "starting", "stopping", "off"].map((s) => [mountStateLabel(s), mountStateClass(s)])).toEqual([
      ["mounted", "mount-ok"],
      ["failed", "mount-failed"],
      ["starting", "mount-busy"],
      ["stopping", "mount-busy"],
      ["off", "mount-off"],
    ]);
    expect(mountStateLabel("something-new")).toBe("something-new");
  });

  it("says in one sentence where the mount is", () => {
    expect(mountHeadline(mount(), now)).toBe("Mounted at /mnt/nzbdav for 3 min.");
    // A clock a little ahead of the browser's is not a negative time.
    expect(mountHeadline(mount({ since: "2026-11-26T12:00:02Z" }), now)).toBe("Mounted at /mnt/nzbdav just now.");
    expect(mountHeadline(mount({ enabled: false, state: "off" }), now)).toBe(
      "NzbDav's managed mount is off (Mount:Enabled is false): mount /mnt/nzbdav yourself, or turn it on in Settings → Mount.",
    );
    expect(mountHeadline(mount({ state: "failed", since: "2026-11-26T11:59:30Z", lastError: "/dev/fuse does not exist" }), now)).toBe(
      "Not mounted at /mnt/nzbdav: the last attempt failed 30 s ago, and NzbDav tries again by itself. The last error says why.",
    );
    expect(mountHeadline(mount({ state: "starting" }), now)).toBe("Mounting /mnt/nzbdav…");
  });

  it("lists restarts, cache, rclone and the last error; nothing for a mount that is off and never ran", () => {
    expect(mountFacts(mount({ enabled: false, state: "off", rcloneVersion: null, cacheBytes: null }), now)).toEqual([]);
    expect(mountFacts(mount({ restarts: 2, lastError: "rclone exited with code 1", lastErrorAt: "2026-11-26T11:00:00Z" }), now)).toEqual([
      { label: "Path", value: "/mnt/nzbdav" },
      { label: "Restarts", value: "2" },
      { label: "Cache", value: "1.5 MB" },
      { label: "rclone", value: "v1.71.0, symlinks on" },
      { label: "Last error", value: "rclone exited with code 1 (1 h ago)" },
    ]);
    expect(mountFacts(mount({ cacheBytes: null, links: false, rcloneVersion: "v1.60.1-DEV" }), now)).toEqual([
      { label: "Path", value: "/mnt/nzbdav" },
      { label: "Restarts", value: "0" },
      { label: "Cache", value: "–" },
      { label: "rclone", value: "v1.60.1-DEV, symlinks off" },
    ]);
  });
});

describe("the mount check's summary", () => {
  const check = (name: string, ok: boolean) => ({ name, ok, detail: `${name} said something.` });

  it("counts what passed, or names what failed", () => {
    expect(checkSummary({ mountPath: "/m", ok: true, checks: [check("Mount path", true), check("Mounted", true)] })).toBe("All 2 checks passed.");
    expect(checkSummary({ mountPath: "/m", ok: true, checks: [check("Mount path", true)] })).toBe("The check passed.");
    expect(checkSummary({ mountPath: "/m", ok: false, checks: [check("Mount path", false)] })).toBe("1 of 1 check failed: Mount path.");
    expect(
      checkSummary({ mountPath: "/m", ok: false, checks: [check("Mount path", true), check("Mounted", false), check("Library file", false)] }),
    ).toBe("2 of 3 checks failed: Mounted, Library file.");
    expect(checkSummary({ mountPath: "/m", ok: false, checks: [] })).toBe("Nothing was checked.");
  });
});

describe("splitPlaceholder", () => {
  const placeholder = "<your WebDAV password>";

  it("marks each placeholder in a command and keeps the text around it", () => {
    expect(splitPlaceholder(`pass="$(rclone obscure '${placeholder}')" --no-obscure`, placeholder)).toEqual([
      { text: `pass="$(rclone obscure '`, placeholder: false },
      { text: placeholder, placeholder: true },
      { text: `')" --no-obscure`, placeholder: false },
    ]);
    expect(splitPlaceholder(`${placeholder}${placeholder}`, placeholder)).toEqual([
      { text: placeholder, placeholder: true },
      { text: placeholder, placeholder: true },
    ]);
  });

  it("leaves a text without it, or an empty placeholder, whole", () => {
    expect(splitPlaceholder("rclone mount nzbdav: /mnt/nzbdav", placeholder)).toEqual([{ text: "rclone mount nzbdav: /mnt/nzbdav", placeholder: false }]);
    expect(splitPlaceholder("abc", "")).toEqual([{ text: "abc", placeholder: false }]);
    expect(splitPlaceholder("", placeholder)).toEqual([{ text: "", placeholder: false }]);
  });
});
