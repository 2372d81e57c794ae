import type { ArrInstance, ArrTest } from "../api/types";
import type { FieldCheck, FormValues } from "./entities";

/*
 * What is Sonarr/Radarr's own in their editor; the form itself follows their field descriptors
 * (lib/entityFields.ts, lib/entities.ts).
 */

/** The instance's kind as the form has it ("Sonarr" until one is chosen). */
export function formKind(values: FormValues): string {
  return typeof values.kind === "string" && values.kind !== "" ? values.kind : "Sonarr";
}

/** The address each kind listens on by default, as the URL field's hint. */
export function urlPlaceholder(kind: string): string {
  return kind === "Radarr" ? "http://radarr:7878" : "http://sonarr:8989";
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

/** The server's rules for an instance that its field descriptors cannot say. */
export const arrChecks: Readonly<Record<string, FieldCheck>> = {
  // The name is the last segment of the instance's own calls, and …/arr/test is the test call.
  name: (name) => (name.trim().toLowerCase() === "test" ? "'test' is reserved; choose another name." : null),
  url: arrUrlProblem,
};

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
