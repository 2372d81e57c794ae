import { describe, expect, it } from "vitest";
import { apiPaths } from "./paths";

describe("apiPaths", () => {
  it("encodes a path parameter once, whatever it holds", () => {
    expect(apiPaths.providers.change("my news/eu")).toBe("/ui/api/settings/providers/my%20news%2Feu");
    expect(apiPaths.providers.remove("a?b")).toBe("/ui/api/settings/providers/a%3Fb/delete");
    expect(apiPaths.arr.change("my sonarr")).toBe("/ui/api/settings/arr/my%20sonarr");
    expect(apiPaths.arr.remove("a&b")).toBe("/ui/api/settings/arr/a%26b/delete");
    expect(apiPaths.job("id/with#odd", "retry")).toBe("/ui/api/jobs/id%2Fwith%23odd/retry");
    expect(apiPaths.jobNzb("42")).toBe("/ui/api/jobs/42/nzb");
    expect(apiPaths.healthFile("f 1", "ignore")).toBe("/ui/api/health/files/f%201/ignore");
    // Already-encoded text is encoded again: the name is data, never part of the route.
    expect(apiPaths.arr.change("a%20b")).toBe("/ui/api/settings/arr/a%2520b");
  });

  it("builds queries in one place, leaving out what is not asked for", () => {
    expect(apiPaths.rawFile("/content/a b/c&d.mkv")).toBe("/ui/api/files/raw?path=%2Fcontent%2Fa+b%2Fc%26d.mkv");
    expect(apiPaths.rawFile("/content/x.mkv", true)).toBe("/ui/api/files/raw?path=%2Fcontent%2Fx.mkv&download=true");
    expect(apiPaths.files("/content")).toBe("/ui/api/files?path=%2Fcontent");
    expect(apiPaths.history({ page: 2, pageSize: 25, search: "a&b", status: "failed" })).toBe("/ui/api/history?page=2&pageSize=25&search=a%26b&status=failed");
    expect(apiPaths.health({ state: "action", offset: 50, limit: 50 })).toBe("/ui/api/health?state=action&offset=50&limit=50");
    expect(apiPaths.logs({ level: "Warning", source: "", search: "", limit: 500 })).toBe("/ui/api/logs?level=Warning&source=&search=&limit=500");
    expect(apiPaths.logsDownload({ level: "Error", source: "Mount", search: "x y" })).toBe("/ui/api/logs/download?level=Error&source=Mount&search=x+y");
  });

  it("names the fixed routes", () => {
    expect(apiPaths.session).toBe("/ui/api/session");
    expect(apiPaths.queuePause(true)).toBe("/ui/api/queue/pause");
    expect(apiPaths.queuePause(false)).toBe("/ui/api/queue/resume");
    expect(apiPaths.providers.test).toBe("/ui/api/settings/providers/test");
    expect(apiPaths.arr.add).toBe("/ui/api/settings/arr");
    expect(apiPaths.serverHealth).toBe("/health");
  });
});
