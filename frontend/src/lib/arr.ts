import { ApiError } from "../api/client";
import type { ArrInstance, ArrKind, ArrRequest, ArrSaveRefused, ArrTest } from "../api/types";

/** The longest timeout the server takes for one call to an instance (ArrInstanceOptions.MaxTimeout), in seconds. */
export const maxArrTimeoutSeconds = 300;

/** The Sonarr/Radarr form's fields, as typed. */
export interface ArrForm {
  name: string;
  kind: ArrKind;
  url: string;
  /** Empty keeps the stored one (a new instance needs one). */
  apiKey: string;
  /** Comma-separated; empty: any category. */
  categories: string;
  timeoutSeconds: string;
  enabled: boolean;
}

export const newArrForm: ArrForm = {
  name: "",
  kind: "Sonarr",
  url: "",
  apiKey: "",
  categories: "",
  timeoutSeconds: "15",
  enabled: true,
};

/** The address each kind listens on by default, as the URL field's hint. */
export function urlPlaceholder(kind: ArrKind): string {
  return kind === "Sonarr" ? "http://sonarr:8989" : "http://radarr:7878";
}

/** An existing instance in the form; its API key is never sent to the browser, so that field starts empty. */
export function arrForm(instance: ArrInstance): ArrForm {
  return {
    name: instance.name,
    kind: instance.kind,
    url: instance.url,
    apiKey: "",
    categories: instance.categories.join(", "),
    timeoutSeconds: String(instance.timeoutSeconds),
    enabled: instance.enabled,
  };
}

/** "tv, anime , ,TV" → ["tv", "anime"]: trimmed, blanks dropped, each once whatever its case. */
export function parseCategories(text: string): string[] {
  const seen = new Set<string>();
  const categories: string[] = [];
  for (const part of text.split(",")) {
    const category = part.trim();
    if (category.length === 0 || seen.has(category.toLowerCase())) continue;
    seen.add(category.toLowerCase());
    categories.push(category);
  }
  return categories;
}

/** Why the URL cannot be an instance's address (the server's rule), or null when it can. */
export function arrUrlProblem(text: string): string | null {
  const trimmed = text.trim();
  const example = "such as http://sonarr:8989 (with its URL base, if it has one)";
  if (trimmed.length === 0) return `Enter the instance's address, ${example}.`;
  if (/\s/.test(trimmed)) return "The address cannot contain spaces.";
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return `The address must start with http:// or https://, ${example}.`;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return `'${trimmed}' is not an address: enter one ${example}.`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `The address must start with http:// or https://, ${example}.`;
  if (!url.hostname) return `The address needs a host name, ${example}.`;
  if (url.search || url.hash || trimmed.includes("?") || trimmed.includes("#")) return "The address cannot have a query (?…) or a fragment (#…).";
  if (url.username || url.password) return "The address cannot hold a user name or password: the API key is the login.";
  return null;
}

/** Why the form cannot be sent as it is (the server's own rules), or null when it can; `hasApiKey`: one is stored. */
export function arrProblem(form: ArrForm, hasApiKey: boolean): string | null {
  const name = form.name.trim();
  if (name.length === 0 || name.length > 64 || /[:/\\?#]/.test(name)) return "The instance needs a name of 1 to 64 characters without ':', '/', '\\', '?' or '#'.";
  if (name.toLowerCase() === "test") return "'test' is reserved; choose another name.";
  if (form.kind !== "Sonarr" && form.kind !== "Radarr") return "The kind must be Sonarr or Radarr.";
  const url = arrUrlProblem(form.url);
  if (url) return url;
  if (/[\r\n]/.test(form.apiKey)) return "The API key cannot contain line breaks.";
  if (!hasApiKey && form.apiKey.trim().length === 0) return `Enter the API key (in ${form.kind}: Settings → General → API Key).`;
  const timeout = form.timeoutSeconds.trim();
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1 || Number(timeout) > maxArrTimeoutSeconds) return `The timeout must be between 1 and ${maxArrTimeoutSeconds} seconds.`;
  if (parseCategories(form.categories).some((c) => c.length > 64 || /[:/\\]/.test(c))) return "A category is at most 64 characters, without ':', '/' or '\\'.";
  return null;
}

/**
 * The request for a form: an empty API key is null (keep the stored one). `originalName` lets a
 * test of a saved instance use its stored key.
 */
export function arrRequest(form: ArrForm, options: { force?: boolean; originalName?: string | null } = {}): ArrRequest {
  const request: ArrRequest = {
    name: form.name.trim(),
    kind: form.kind,
    url: form.url.trim().replace(/\/+$/, ""),
    apiKey: form.apiKey.trim() === "" ? null : form.apiKey.trim(),
    enabled: form.enabled,
    categories: parseCategories(form.categories),
    timeoutSeconds: Number(form.timeoutSeconds.trim()),
    force: options.force ?? false,
  };
  if (options.originalName) request.originalName = options.originalName;
  return request;
}

/** The change that only turns an instance on or off: everything else as it is, the stored key kept. */
export function arrToggleRequest(instance: ArrInstance, enabled: boolean): ArrRequest {
  return { ...arrRequest(arrForm(instance)), enabled };
}

/** A test's outcome in one line: "Test passed: Sonarr 4.0.14" or "Test failed: <why>". */
export function arrTestLine(test: ArrTest): string {
  if (test.ok) return `Test passed: ${[test.appName, test.version].filter(Boolean).join(" ") || "the instance answered"}`;
  return `Test failed: ${test.error ?? "the instance did not answer as expected"}`;
}

/** An instance's facts in one line: "http://sonarr:8989 · API key stored · categories tv, anime · timeout 15 s". */
export function arrFacts(instance: ArrInstance): string {
  const categories = instance.categories.length > 0 ? `categories ${instance.categories.join(", ")}` : "any category";
  return [instance.url, instance.hasApiKey ? "API key stored" : "no API key", categories, `timeout ${Number(instance.timeoutSeconds.toFixed(1))} s`].join(" · ");
}

/** The 422 an instance save answers when its test failed, or null for any other failure. */
export function asArrSaveRefusal(error: unknown): ArrSaveRefused | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const body = error.body;
  if (!body || typeof body !== "object" || !("error" in body) || !("test" in body)) return null;
  const { error: message, test } = body;
  if (typeof message !== "string" || !test || typeof test !== "object" || typeof (test as { ok?: unknown }).ok !== "boolean") return null;
  return body as ArrSaveRefused;
}
