import type { Provider, ProviderTest, ProviderTestStep, Setting, SettingSection } from "../api/types";
import { milliseconds } from "./format";
import { formatSize, parseSize, sizeProblem } from "./sizes";
import { minPasswordLength } from "./validation";

/** The sections in the order the page shows them. */
export const settingSections: readonly SettingSection[] = ["Connections", "Bandwidth", "Streaming", "Disk cache", "Queue", "SABnzbd", "WebDAV", "Mount", "Health"];

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

/** The longest value any setting takes (SettingCatalog.MaxTextLength on the server). */
export const maxTextLength = 1024;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * What is wrong with one edit before it is sent, worded as the server words it (SettingCatalog.Normalize):
 * empty, too long, not a whole number, out of range (sizes in units), a category name that cannot
 * be used, or a text of the wrong shape. null when it is fine; an empty nullable field is automatic.
 */
export function fieldProblem(setting: Setting, edit: string): string | null {
  const text = edit.trim();
  const label = setting.label;
  if (text.length > maxTextLength) return `${label} can have at most ${count(maxTextLength)} characters; this has ${count(text.length)}.`;
  if (text === "") return setting.nullable || setting.type === "List" ? null : `${label} cannot be empty.`;
  switch (setting.type) {
    case "Bytes":
      return sizeProblem(label, edit, setting.min, setting.max);
    case "Number": {
      if (!/^[+-]?\d+$/.test(text)) return `${label} must be a whole number; '${text}' is not.`;
      const number = Number(text);
      const min = setting.min ?? Number.MIN_SAFE_INTEGER;
      const max = setting.max ?? 2_147_483_647;
      if (number < min || number > max)
        return setting.max != null ? `${label} must be between ${setting.min} and ${setting.max}; ${number} is not.` : `${label} must be at least ${setting.min}; ${number} is not.`;
      return null;
    }
    case "List": {
      const items = text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== "");
      const bad = items.find((item) => !/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/.test(item));
      if (bad !== undefined) return `${label}: '${bad}' is not a usable name (letters, digits, '-', '_' and '.' only, at most 64).`;
      if (new Set(items.map((item) => item.toLowerCase())).size !== items.length) return `${label}: a name appears twice.`;
      return null;
    }
    case "Text":
      return textProblem(setting, text);
    default:
      return null;
  }
}

/** The text settings with a shape of their own. */
function textProblem(setting: Setting, text: string): string | null {
  const label = setting.label;
  switch (setting.key) {
    case "NzbDav:MountPath":
      return text.startsWith("/") ? null : `${label} must be an absolute path (starting with '/'); '${text}' is not.`;
    case "Mount:VfsCacheMaxSize":
      return /^(off|\d+(\.\d+)?[bBkKmMgGtTpP]?)$/.test(text) ? null : `${label} must be a size in rclone's units, e.g. 20G, 512M or off; '${text}' is not.`;
    case "Mount:DirCacheTime":
      return /^(\d+(\.\d+)?(ns|us|ms|s|m|h|d|w|M|y))+$/.test(text) ? null : `${label} must be a duration in rclone's units, e.g. 30s, 5m or 1h; '${text}' is not.`;
    case "NzbDav:WebDav:PublicUrl":
      return /^https?:\/\/[^\s/]+/i.test(text) ? null : `${label} must be an http:// or https:// address; '${text}' is not.`;
    default:
      return null;
  }
}

/** What is wrong with the edits before they are sent, by key (see `fieldProblem`). */
export function fieldProblems(settings: readonly Setting[], edits: Readonly<Record<string, string>>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const setting of settings) {
    const edit = edits[setting.key];
    if (edit === undefined || setting.locked) continue;
    const problem = fieldProblem(setting, edit);
    if (problem) problems[setting.key] = problem;
  }
  return problems;
}

/** The field a refusal from the server names ("Jobs at once must be…"), so it can be marked where it is. */
export function fieldOfRefusal(settings: readonly Setting[], message: string): string | null {
  const named = settings.filter((s) => message.startsWith(`${s.label} `) || message.startsWith(`${s.label}:`));
  // "Read-ahead at start (ranged)" before "Read-ahead at start": the longest label that fits.
  named.sort((a, b) => b.label.length - a.label.length);
  return named[0]?.key ?? null;
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
  const limits = [
    provider.maxBytesPerSecond != null ? `at most ${formatSize(provider.maxBytesPerSecond)}/s` : null,
    provider.dailyQuotaBytes != null ? `${formatSize(provider.dailyQuotaBytes)} a day` : null,
    provider.monthlyQuotaBytes != null ? `${formatSize(provider.monthlyQuotaBytes)} a month from day ${provider.quotaResetDay}` : null,
    provider.windowQuotaBytes != null ? `${formatSize(provider.windowQuotaBytes)} per ${provider.quotaWindowHours} h` : null,
  ].filter((fact): fact is string => fact !== null);
  return [`${provider.host}:${provider.port}`, tls, login, `${provider.maxConnections} connections`, `priority ${provider.priority}`, `pipeline ${provider.pipelineDepth}`, ...limits].join(" · ");
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
