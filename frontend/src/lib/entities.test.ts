import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import type { UiField } from "../api/types";
import { arrChecks } from "./arr";
import {
  asSaveRefusal,
  callProblem,
  entityForm,
  entityRequest,
  formProblem,
  newForm,
  parseList,
  storedSecrets,
  toggleRequest,
  type EntityForm,
  type FieldValue,
} from "./entities";
import { arrFields, instance, provider, providerFields } from "../testing/entities";



const none = new Set<string>();
const withValues = (form: EntityForm, values: Record<string, FieldValue>, remove: Record<string, boolean> = {}): EntityForm => ({
  values: { ...form.values, ...values },
  remove: { ...form.remove, ...remove },
});

describe("a provider's form and request, from its descriptors", () => {
  const blank = newForm(providerFields);

  it("starts a new provider on implicit TLS port 563 with 10 connections", () => {
    expect(entityRequest(providerFields, withValues(blank, { name: " second ", host: " 127.0.0.1 " }))).toEqual({
      name: "second",
      host: "127.0.0.1",
      port: 563,
      useTls: true,
      allowUntrustedCertificate: false,
      user: null,
      password: null,
      maxConnections: 10,
      role: "Primary",
      priority: 0,
      pipelineDepth: 4,
      maxBytesPerSecond: null,
      dailyQuotaBytes: null,
      monthlyQuotaBytes: null,
      quotaResetDay: 1,
      windowQuotaBytes: null,
      quotaWindowHours: 24,
      enabled: true,
      force: false,
    });
  });

  it("takes allowances and a speed cap as sizes, sends them in bytes, and shows stored ones as sizes", () => {
    const form = withValues(blank, { name: "block", host: "h", dailyQuotaBytes: "50 GiB", monthlyQuotaBytes: "1.5TiB", maxBytesPerSecond: "20m" });
    expect(formProblem(providerFields, form, none)).toBeNull();
    expect(entityRequest(providerFields, form)).toMatchObject({ dailyQuotaBytes: 50 * 1024 ** 3, monthlyQuotaBytes: 1.5 * 1024 ** 4, maxBytesPerSecond: 20 * 1024 ** 2, windowQuotaBytes: null });
    expect(entityForm(providerFields, { ...provider, monthlyQuotaBytes: 1024 ** 4, maxBytesPerSecond: null }).values).toMatchObject({ monthlyQuotaBytes: "1 TiB", maxBytesPerSecond: "" });
    const problem = (values: Record<string, FieldValue>) => formProblem(providerFields, withValues(form, values), none);
    expect(problem({ dailyQuotaBytes: "lots" })).toEqual({
      field: "dailyQuotaBytes",
      message: "Daily allowance: 'lots' is not a size; write bytes or a number with a unit, e.g. 64 MiB, 64MB or 1.5 GiB.",
    });
    expect(problem({ dailyQuotaBytes: "0" })?.field).toBe("dailyQuotaBytes");
    expect(problem({ maxBytesPerSecond: "1 KiB" })).toEqual({ field: "maxBytesPerSecond", message: "Max speed (per second) must be between 64 KiB and 100 GiB; 1 KiB is not." });
    expect(problem({ quotaResetDay: "29" })?.message).toBe("Month starts on day must be a whole number between 1 and 28.");
  });

  it("round-trips a provider with its password field empty, which keeps the stored one", () => {
    const form = entityForm(providerFields, provider);
    expect(form.values.password).toBe("");
    expect(form.values.port).toBe("563");
    const request = entityRequest(providerFields, form);
    expect(request).toMatchObject({ name: "news", host: "news.example.com", port: 563, user: "me", maxConnections: 20, role: "BackupOnly", priority: 3, pipelineDepth: 8 });
    expect(request.password).toBeNull();
  });

  it("sends a typed password as typed, \"\" to remove the stored one, and force and originalName when asked", () => {
    const form = entityForm(providerFields, provider);
    expect(entityRequest(providerFields, withValues(form, { password: " s3cret " })).password).toBe(" s3cret ");
    expect(entityRequest(providerFields, withValues(form, { password: "ignored" }, { password: true })).password).toBe("");
    const forced = entityRequest(providerFields, form, { force: true, originalName: "old name" });
    expect(forced.force).toBe(true);
    expect(forced.originalName).toBe("old name");
    expect("originalName" in entityRequest(providerFields, form)).toBe(false);
  });

  it("toggles only enabled, keeping the stored password", () => {
    const request = toggleRequest(providerFields, provider, false);
    expect(request).toEqual({ ...entityRequest(providerFields, entityForm(providerFields, provider)), enabled: false });
    expect(request.password).toBeNull();
    expect(request).toMatchObject({ host: "news.example.com", port: 563, useTls: true, maxConnections: 20 });
  });

  it("finds what the server would refuse before sending, naming the field", () => {
    const good = withValues(blank, { name: "a", host: "h" });
    const problem = (values: Record<string, FieldValue>) => formProblem(providerFields, withValues(good, values), none);
    expect(formProblem(providerFields, good, none)).toBeNull();
    expect(problem({ name: " " })).toEqual({ field: "name", message: "Name must be 1 to 64 characters, without ':'." });
    expect(problem({ name: "a:b" })?.field).toBe("name");
    expect(problem({ name: "x".repeat(65) })?.field).toBe("name");
    expect(problem({ host: "" })).toEqual({ field: "host", message: "Host must be 1 to 253 characters, without spaces or tabs." });
    expect(problem({ host: "news example" })?.field).toBe("host");
    expect(problem({ port: "70000" })).toEqual({ field: "port", message: "Port must be a whole number between 1 and 65535." });
    expect(problem({ port: "5.5" })?.field).toBe("port");
    expect(problem({ port: "12abc" })?.field).toBe("port");
    expect(problem({ maxConnections: "0" })?.message).toBe("Max connections must be a whole number between 1 and 500.");
    expect(problem({ priority: "-1" })?.field).toBe("priority");
    expect(problem({ pipelineDepth: "65" })?.field).toBe("pipelineDepth");
    expect(problem({ password: "a\nb" })).toEqual({ field: "password", message: "Password cannot contain line breaks." });
    expect(problem({ user: "a\rb" })?.field).toBe("user");
    expect(problem({ role: "Tertiary" })).toEqual({ field: "role", message: "Role must be Primary, BackupOnly or Block." });
  });

  it("leaves an optional number empty for the server's default, and checks the first field at fault first", () => {
    expect(formProblem(providerFields, withValues(blank, { name: "a", host: "h", port: "" }), none)).toBeNull();
    expect(entityRequest(providerFields, withValues(blank, { name: "a", host: "h", port: " " })).port).toBeNull();
    expect(formProblem(providerFields, withValues(blank, { name: "", host: "", port: "0" }), none)?.field).toBe("name");
  });

  it("offers to keep only the secrets that are stored", () => {
    expect([...storedSecrets(providerFields, provider)]).toEqual(["password"]);
    expect([...storedSecrets(providerFields, { ...provider, hasPassword: false })]).toEqual([]);
    expect([...storedSecrets(providerFields, null)]).toEqual([]);
  });
});

describe("a Sonarr/Radarr's form and request, from its descriptors", () => {
  const filled = withValues(newForm(arrFields), { name: "sonarr", url: "http://sonarr:8989", apiKey: "0123456789abcdef" });
  const problem = (values: Record<string, FieldValue>, stored: ReadonlySet<string> = none) => formProblem(arrFields, withValues(filled, values), stored, arrChecks);

  it("starts a new instance as a Sonarr with a 15 s timeout and every category", () => {
    expect(newForm(arrFields).values).toEqual({ name: "", kind: "Sonarr", url: "", apiKey: "", categories: "", timeoutSeconds: "15", enabled: true });
    expect(formProblem(arrFields, filled, none, arrChecks)).toBeNull();
  });

  it("needs a name the server takes", () => {
    const rule = "Name must be 1 to 64 characters, without ':', '/', '\\', '?' or '#'.";
    expect(problem({ name: "  " })).toEqual({ field: "name", message: rule });
    expect(problem({ name: "a/b" })?.message).toBe(rule);
    expect(problem({ name: "x".repeat(65) })?.message).toBe(rule);
    expect(problem({ name: "Test" })).toEqual({ field: "name", message: "'test' is reserved; choose another name." });
  });

  it("needs an http(s) URL and a kind it knows", () => {
    expect(problem({ url: "" })).toEqual({ field: "url", message: "URL must be 1 to 2048 characters, without spaces or tabs." });
    expect(problem({ url: "sonarr:8989" })?.message).toContain("http://");
    expect(problem({ url: "sonarr:8989" })?.field).toBe("url");
    expect(problem({ kind: "Lidarr" })).toEqual({ field: "kind", message: "Kind must be Sonarr or Radarr." });
  });

  it("needs an API key unless one is stored", () => {
    expect(problem({ apiKey: "" })).toEqual({ field: "apiKey", message: "API key is required." });
    expect(problem({ apiKey: "  " })?.field).toBe("apiKey");
    expect(problem({ apiKey: "" }, new Set(["apiKey"]))).toBeNull();
    expect(problem({ apiKey: "a\nb" }, new Set(["apiKey"]))).toEqual({ field: "apiKey", message: "API key cannot contain line breaks." });
  });

  it("bounds the timeout (seconds, fractions allowed) and the categories", () => {
    expect(problem({ timeoutSeconds: "0" })).toEqual({ field: "timeoutSeconds", message: "Timeout (s) must be a number between 1 and 300." });
    expect(problem({ timeoutSeconds: "301" })?.field).toBe("timeoutSeconds");
    expect(problem({ timeoutSeconds: "soon" })?.field).toBe("timeoutSeconds");
    expect(problem({ timeoutSeconds: "1.5" })).toBeNull();
    expect(problem({ categories: "tv, a/b" })).toEqual({ field: "categories", message: "Categories: each must be at most 64 characters, without ':', '/' or '\\'." });
    expect(problem({ categories: `tv, ${"c".repeat(65)}` })?.field).toBe("categories");
  });

  it("sends the form as the server takes it: categories as a list, the timeout in seconds", () => {
    expect(entityRequest(arrFields, withValues(filled, { url: " http://sonarr:8989/ ", categories: "tv, anime", timeoutSeconds: "2.5", apiKey: "key" }))).toEqual({
      name: "sonarr",
      kind: "Sonarr",
      url: "http://sonarr:8989/",
      apiKey: "key",
      categories: ["tv", "anime"],
      timeoutSeconds: 2.5,
      enabled: true,
      force: false,
    });
  });

  it("keeps the stored key with an empty field, forces when asked, names the original for a test", () => {
    const request = entityRequest(arrFields, withValues(filled, { apiKey: "" }), { force: true, originalName: "old" });
    expect(request.apiKey).toBeNull();
    expect(request.force).toBe(true);
    expect(request.originalName).toBe("old");
  });

  it("round-trips a stored instance, and a toggle changes only enabled", () => {
    expect(entityForm(arrFields, instance).values).toEqual({ name: "sonarr", kind: "Sonarr", url: "http://sonarr:8989", apiKey: "", categories: "tv, anime", timeoutSeconds: "15", enabled: true });
    expect(toggleRequest(arrFields, instance, false)).toEqual({ ...entityRequest(arrFields, entityForm(arrFields, instance)), enabled: false, apiKey: null });
  });
});

describe("descriptors the two entities do not have", () => {
  const field = (over: Partial<UiField>): UiField => ({
    name: "f",
    label: "F",
    kind: "Text",
    required: false,
    min: null,
    max: null,
    maxLength: null,
    forbidden: null,
    choices: null,
    default: null,
    help: null,
    placeholder: null,
    account: false,
    ...over,
  });
  const check = (f: UiField, value: FieldValue, remove = false) => formProblem([f], { values: { f: value }, remove: { f: remove } }, none);

  it("say each rule in words", () => {
    expect(check(field({ required: true }), "")).toEqual({ field: "f", message: "F is required." });
    expect(check(field({ maxLength: 3 }), "abcd")?.message).toBe("F must be at most 3 characters.");
    expect(check(field({ kind: "Integer", min: 2 }), "1")?.message).toBe("F must be a whole number at least 2.");
    expect(check(field({ kind: "Number", max: 2 }), "2.5")?.message).toBe("F must be a number at most 2.");
    expect(check(field({ kind: "List", required: true }), " , ")?.message).toBe("F is required.");
    expect(check(field({ kind: "Secret", required: true }), "", true)).toBeNull();
  });

  it("leave an optional choice empty, sent as null", () => {
    const choice = field({ kind: "Choice", choices: ["A", "B"] });
    expect(newForm([choice]).values.f).toBe("");
    expect(check(choice, "")).toBeNull();
    expect(entityRequest([choice], newForm([choice])).f).toBeNull();
  });
});

describe("parseList", () => {
  it("trims, drops blanks and keeps each once whatever its case", () => {
    expect(parseList("tv, anime , ,TV,")).toEqual(["tv", "anime"]);
    expect(parseList("")).toEqual([]);
  });
});

describe("answers", () => {
  const steps = { ok: false, error: "481", steps: [] };

  it("recognise the 422 of a failed test, and nothing else", () => {
    const body = { error: "Not saved", test: steps };
    expect(asSaveRefusal(new ApiError(422, "Not saved", body))).toEqual(body);
    expect(asSaveRefusal(new ApiError(422, "Not saved", { error: "Not saved", test: { ok: false, appName: null, version: null, error: "refused" } }))?.test).toMatchObject({ ok: false });
    expect(asSaveRefusal(new ApiError(400, "Not saved", body))).toBeNull();
    expect(asSaveRefusal(new ApiError(422, "Not saved", { error: "x" }))).toBeNull();
    expect(asSaveRefusal(new ApiError(422, "odd", { error: "odd", test: { steps: [] } }))).toBeNull();
    expect(asSaveRefusal(new Error("Not saved"))).toBeNull();
  });

  it("take the field a 400 names, when it names one", () => {
    expect(callProblem(new ApiError(400, "'x y' is not a host name or address.", { error: "'x y' is not a host name or address.", field: "host" }))).toEqual({
      message: "'x y' is not a host name or address.",
      field: "host",
    });
    expect(callProblem(new ApiError(400, "No.", { error: "No.", field: null }))).toEqual({ message: "No.", field: null });
    expect(callProblem(new ApiError(409, "Taken.", { error: "Taken." }))).toEqual({ message: "Taken.", field: null });
    expect(callProblem(new Error("network"))).toEqual({ message: "network", field: null });
  });
});
