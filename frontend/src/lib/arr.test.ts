import { describe, expect, it } from "vitest";
import { instance } from "../testing/entities";
import { arrChecks, arrFacts, arrTestLine, arrUrlProblem, formKind, urlPlaceholder } from "./arr";


describe("arrUrlProblem", () => {
  it("takes http and https addresses with a port and a URL base", () => {
    expect(arrUrlProblem("http://sonarr:8989")).toBeNull();
    expect(arrUrlProblem(" https://example.com/sonarr/ ")).toBeNull();
    expect(arrUrlProblem("http://127.0.0.1:7878")).toBeNull();
  });

  it("refuses anything else with the reason", () => {
    expect(arrUrlProblem("")).toContain("Enter the instance's address");
    expect(arrUrlProblem("sonarr:8989")).toContain("must start with http:// or https://");
    expect(arrUrlProblem("ftp://sonarr")).toContain("must start with http:// or https://");
    expect(arrUrlProblem("127.0.0.1:8989")).toContain("must start with http:// or https://");
    expect(arrUrlProblem("sonarr")).toContain("must start with http:// or https://");
    expect(arrUrlProblem("http://")).toContain("is not an address");
    expect(arrUrlProblem("http://son arr:8989")).toBe("The address cannot contain spaces.");
    expect(arrUrlProblem("http://sonarr:8989/?apikey=x")).toContain("query");
    expect(arrUrlProblem("http://sonarr:8989/#x")).toContain("fragment");
    expect(arrUrlProblem("http://me:secret@sonarr:8989")).toContain("user name or password");
  });
});

describe("arrChecks", () => {
  it("reserve 'test' whatever its case, and check the address", () => {
    const values = { kind: "Sonarr" };
    expect(arrChecks.name!(" Test ", values)).toBe("'test' is reserved; choose another name.");
    expect(arrChecks.name!("tested", values)).toBeNull();
    expect(arrChecks.url!("sonarr:8989", values)).toContain("http://");
    expect(arrChecks.url!("http://sonarr:8989", values)).toBeNull();
  });
});

describe("texts", () => {
  it("hint at each kind's usual address", () => {
    expect(urlPlaceholder(formKind({ kind: "Radarr" }))).toBe("http://radarr:7878");
    expect(urlPlaceholder(formKind({ kind: "Sonarr" }))).toBe("http://sonarr:8989");
    expect(formKind({ kind: "" })).toBe("Sonarr");
  });

  it("say what a test found", () => {
    expect(arrTestLine({ ok: true, appName: "Sonarr", version: "4.0.14.2939", error: null })).toBe("Test passed: Sonarr 4.0.14.2939");
    expect(arrTestLine({ ok: false, appName: null, version: null, error: "Connection refused (127.0.0.1:9)." })).toBe("Test failed: Connection refused (127.0.0.1:9).");
  });

  it("list an instance's facts", () => {
    expect(arrFacts(instance)).toBe("http://sonarr:8989 · API key stored · categories tv, anime · timeout 15 s");
    expect(arrFacts({ ...instance, hasApiKey: false, categories: [], timeoutSeconds: 2.5 })).toBe("http://sonarr:8989 · no API key · any category · timeout 2.5 s");
  });
});
