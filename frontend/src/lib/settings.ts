import type { Provider, ProviderTest, ProviderTestStep, Setting, SettingSection } from "../api/types";
import { milliseconds } from "./format";
import { formatSize, parseSize, sizeProblem } from "./sizes";
import { minPasswordLength } from "./validation";

/** The sections in the order the page shows them. */
export const settingSections: readonly SettingSection[] = ["Connections", "Streaming", "Queue", "SABnzbd", "WebDAV", "Mount", "Health"];

/** The settings of each section, in the server's order; a section the page does not know is left out. */
export function groupBySection(settings: readonly Setting[]): Record<SettingSection, Setting[]> {
  const groups = Object.fromEntries(settingSections.map((s) => [s, [] as Setting[]])) as Record<SettingSection, Setting[]>;
  for (const setting of settings) groups[setting.section]?.push(setting);
  return groups;
}

/**
 * What a form field starts with: the value in effect, "" for automatic, "true"/"false" for a
 * checkbox, a size in units ("64 MiB") for a byte count.
 */
export function initialValue(setting: Setting): string {
  if (setting.type === "Boolean") return setting.value?.trim().toLowerCase() === "true" ? "true" : "false";
  if (setting.type === "Bytes" && setting.value != null && /^\d+$/.test(setting.value.trim())) return formatSize(Number(setting.value.trim()));
  return setting.value ?? "";
}

/** What the field shows: the user's edit when there is one, else the value in effect (which may change under it until edited). */
export function shownValue(setting: Setting, edits: Readonly<Record<string, string>>): string {
  return edits[setting.key] ?? initialValue(setting);
}

/**
 * The body of POST /ui/api/settings for a form: only the keys whose edit differs from the value in
 * effect (trimmed); "" for a nullable one means automatic. Locked settings are never sent.
 */
export function changedValues(settings: readonly Setting[], edits: Readonly<Record<string, string>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const setting of settings) {
    const edit = edits[setting.key];
    if (edit === undefined || setting.locked) continue;
    const text = edit.trim();
    if (setting.type === "Bytes" && text !== "") {
      // A size is compared and sent as its byte count: "64MB" over "64 MiB" changes nothing.
      const reading = parseSize(text);
      if (reading.bytes !== undefined) {
        if (String(reading.bytes) !== (setting.value ?? "").trim()) values[setting.key] = String(reading.bytes);
        continue;
      }
    }
    if (text !== initialValue(setting).trim()) values[setting.key] = text;
  }
  return values;
}

/**
 * What is wrong with the edits before they are sent, by key: a size that does not read, or is out
 * of the field's range, worded in units. Empty nullable fields (automatic) are fine.
 */
export function fieldProblems(settings: readonly Setting[], edits: Readonly<Record<string, string>>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const setting of settings) {
    const edit = edits[setting.key];
    if (edit === undefined || setting.locked) continue;
    if (edit.trim() === "") {
      if (!setting.nullable && setting.type !== "List") problems[setting.key] = `${setting.label} cannot be empty.`;
      continue;
    }
    if (setting.type === "Bytes") {
      const problem = sizeProblem(setting.label, edit, setting.min, setting.max);
      if (problem) problems[setting.key] = problem;
    }
  }
  return problems;
}

/** The placeholder of an empty field: what the server does when nothing is set. */
export function placeholderOf(setting: Setting): string {
  return setting.automatic ? `automatic: ${setting.automatic}` : "";
}

/** Where a value comes from, for the note under a field: null when it is the built-in default. */
export function sourceNote(setting: Setting): string | null {
  if (setting.locked) return `set by ${setting.source}`;
  if (setting.source === "default") return null;
  return `from ${setting.source}`;
}

/** The hint beside a size field: the byte count it reads as ("67,108,864 bytes"); null when it does not read. */
export function bytesHint(text: string): string | null {
  if (text.trim() === "") return null;
  const reading = parseSize(text);
  return reading.bytes === undefined ? null : `${reading.bytes.toLocaleString("en-US")} bytes`;
}

/** A provider's facts in one line: "news.example.com:563 · TLS · user me, password stored · 20 connections · priority 3 · pipeline 8". */
export function providerFacts(provider: Provider): string {
  const tls = provider.useTls ? (provider.allowUntrustedCertificate ? "TLS, any certificate" : "TLS") : "no TLS";
  const login = `${provider.user ? `user ${provider.user}` : "no login"}${provider.hasPassword ? ", password stored" : ""}`;
  return [`${provider.host}:${provider.port}`, tls, login, `${provider.maxConnections} connections`, `priority ${provider.priority}`, `pipeline ${provider.pipelineDepth}`].join(" · ");
}

/** One test step as a line: "✓ connect · 9.7 ms · 127.0.0.1:119". */
export function stepLine(step: ProviderTestStep): string {
  const parts = [`${step.ok ? "✓" : "✗"} ${step.step}`];
  if (step.ok || step.milliseconds > 0) parts.push(milliseconds(step.milliseconds));
  if (step.detail) parts.push(step.detail);
  return parts.join(" · ");
}

/** The figures a test measured, each a line: the greeting, the round trip, the articles found and their rate. */
export function testFigures(test: ProviderTest): string[] {
  const figures: string[] = [];
  if (test.greeting) figures.push(`Greeting: ${test.greeting}`);
  if (test.roundTripMs !== null) figures.push(`Round trip: ${milliseconds(test.roundTripMs)}`);
  if (test.articlesProbed > 0) {
    const rate = test.articlesPerSecond === null ? "" : `, ${Math.round(test.articlesPerSecond)} articles/s`;
    figures.push(`Articles: ${test.articlesFound} of ${test.articlesProbed} found${rate}`);
  }
  return figures;
}

/** Why the WebDAV account form cannot be sent, or null; an empty password keeps the current one. */
export function webDavProblem(user: string, password: string, confirmation: string): string | null {
  const name = user.trim();
  if (name.length === 0 || name.length > 128 || name.includes(":")) return "The WebDAV user name must be 1 to 128 characters without ':'.";
  if (password.length === 0) return confirmation.length === 0 ? null : "Enter the new password in both fields.";
  if (password.length < minPasswordLength) return `The WebDAV password must have at least ${minPasswordLength} characters.`;
  if (password !== confirmation) return "The two passwords differ.";
  return null;
}

/** A secret shown as dots of its own length (at least 8), so its presence is seen but not its value. */
export function masked(secret: string): string {
  return "•".repeat(Math.max(8, secret.length));
}
