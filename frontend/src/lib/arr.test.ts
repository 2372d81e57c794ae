import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { ArrInstance } from "../api/types";
import {
  arrFacts,
  arrForm,
  arrProblem,
  arrRequest,
  arrTestLine,
  arrToggleRequest,
  arrUrlProblem,
  asArrSaveRefusal,
  newArrForm,
  parseCategories,
} from "./arr";

const instance: ArrInstance = {
  name: "sonarr",
  kind: "Sonarr",
  url: "http://sonarr:8989",
  hasApiKey: true,
  enabled: true,
  categories: ["tv", "anime"],
  timeoutSeconds: 15,
  editable: true,
  source: "web UI",
};

const filled = { ...newArrForm, name: "sonarr", url: "http://sonarr:8989", apiKey: "0123456789abcdef" };

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

describe("arrProblem", () => {
  it("accepts a complete form", () => {
    expect(arrProblem(filled, false)).toBeNull();
  });

  it("needs a name the server takes", () => {
    expect(arrProblem({ ...filled, name: "  " }, false)).toContain("needs a name");
    expect(arrProblem({ ...filled, name: "a/b" }, false)).toContain("needs a name");
    expect(arrProblem({ ...filled, name: "x".repeat(65) }, false)).toContain("needs a name");
    expect(arrProblem({ ...filled, name: "Test" }, false)).toBe("'test' is reserved; choose another name.");
  });

  it("needs an http(s) URL", () => {
    expect(arrProblem({ ...filled, url: "sonarr:8989" }, false)).toContain("http://");
  });

  it("needs an API key unless one is stored", () => {
    expect(arrProblem({ ...filled, apiKey: "" }, false)).toBe("Enter the API key (in Sonarr: Settings → General → API Key).");
    expect(arrProblem({ ...filled, kind: "Radarr", apiKey: "" }, false)).toContain("in Radarr");
    expect(arrProblem({ ...filled, apiKey: "" }, true)).toBeNull();
    expect(arrProblem({ ...filled, apiKey: "a\nb" }, true)).toBe("The API key cannot contain line breaks.");
  });

  it("bounds the timeout and the categories", () => {
    expect(arrProblem({ ...filled, timeoutSeconds: "0" }, false)).toBe("The timeout must be between 1 and 300 seconds.");
    expect(arrProblem({ ...filled, timeoutSeconds: "301" }, false)).toContain("between 1 and 300");
    expect(arrProblem({ ...filled, timeoutSeconds: "1.5" }, false)).toContain("between 1 and 300");
    expect(arrProblem({ ...filled, categories: "tv, a/b" }, false)).toContain("A category");
  });
});

describe("parseCategories", () => {
  it("trims, drops blanks and keeps each once whatever its case", () => {
    expect(parseCategories("tv, anime , ,TV,")).toEqual(["tv", "anime"]);
    expect(parseCategories("")).toEqual([]);
  });
});

describe("arrRequest", () => {
  it("sends the form as the server takes it", () => {
    expect(arrRequest({ ...filled, url: " http://sonarr:8989/ ", categories: "tv, anime", apiKey: " key " })).toEqual({
      name: "sonarr",
      kind: "Sonarr",
      url: "http://sonarr:8989",
      apiKey: "key",
      enabled: true,
      categories: ["tv", "anime"],
      timeoutSeconds: 15,
      force: false,
    });
  });

  it("keeps the stored key with an empty field, forces when asked, names the original for a test", () => {
    const request = arrRequest({ ...filled, apiKey: "" }, { force: true, originalName: "old" });
    expect(request.apiKey).toBeNull();
    expect(request.force).toBe(true);
    expect(request.originalName).toBe("old");
  });

  it("round-trips a stored instance, and a toggle changes only enabled", () => {
    expect(arrForm(instance)).toEqual({ name: "sonarr", kind: "Sonarr", url: "http://sonarr:8989", apiKey: "", categories: "tv, anime", timeoutSeconds: "15", enabled: true });
    expect(arrToggleRequest(instance, false)).toEqual({ ...arrRequest(arrForm(instance)), enabled: false, apiKey: null });
  });
});

describe("texts", () => {
  it("say what a test found", () => {
    expect(arrTestLine({ ok: true, appName: "Sonarr", version: "4.0.14.2939", error: null })).toBe("Test passed: Sonarr 4.0.14.2939");
    expect(arrTestLine({ ok: false, appName: null, version: null, error: "Connection refused (127.0.0.1:9)." })).toBe("Test failed: Connection refused (127.0.0.1:9).");
  });

  it("list an instance's facts", () => {
    expect(arrFacts(instance)).toBe("http://sonarr:8989 · API key stored · categories tv, anime · timeout 15 s");
    expect(arrFacts({ ...instance, hasApiKey: false, categories: [], timeoutSeconds: 2.5 })).toBe("http://sonarr:8989 · no API key · any category · timeout 2.5 s");
  });
});

describe("asArrSaveRefusal", () => {
  it("recognises the 422 with its test, and nothing else", () => {
    const test = { ok: false, appName: null, version: null, error: "refused" };
    const body = { error: "Not saved: the test failed (refused). Save anyway to keep it.", test };
    expect(asArrSaveRefusal(new ApiError(422, body.error, body))).toEqual(body);
    expect(asArrSaveRefusal(new ApiError(400, "bad", { error: "bad" }))).toBeNull();
    expect(asArrSaveRefusal(new ApiError(422, "odd", { error: "odd", test: { steps: [] } }))).toBeNull();
    expect(asArrSaveRefusal(new Error("network"))).toBeNull();
  });
});
