import { ApiError } from "../api/client";
import type { EntityRequest, UiField } from "../api/types";
import { formatSize, parseSize, sizeProblem } from "./sizes";

/*
 * The editor of a listed entity (a provider, a Sonarr/Radarr instance), with nothing of either: the
 * form's state, its checks and the request it sends all follow from the entity's field descriptors.
 */

/** What a field holds while typed: a checkbox its state, everything else its text (numbers and lists too, until sent). */
export type FieldValue = string | boolean;
export type FormValues = Readonly<Record<string, FieldValue>>;

export interface EntityForm {
  values: FormValues;
  /** Secret fields whose stored value is to go (sent as ""). */
  remove: Readonly<Record<string, boolean>>;
}

/** A listed entity as the settings view sends it: every non-secret field by name, `hasX` for a secret `x`. */
export type EntityRecord = Readonly<Record<string, unknown>>;

/** Why a form cannot be sent, and the field at fault when there is one. */
export interface FieldProblem {
  message: string;
  field: string | null;
}

/** A rule a descriptor cannot say (an address's shape, a reserved name): the reason, or null when the value is fine. */
export type FieldCheck = (value: string, values: FormValues) => string | null;

/** "password" → "hasPassword": how the view says a secret is stored without sending it. */
export function storedFlag(name: string): string {
  return `has${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** The secrets an entity has stored. */
export function storedSecrets(fields: readonly UiField[], entity: EntityRecord | null): ReadonlySet<string> {
  return new Set(fields.filter((f) => f.kind === "Secret" && entity?.[storedFlag(f.name)] === true).map((f) => f.name));
}

/** "tv, anime , ,TV" → ["tv", "anime"]: trimmed, blanks dropped, each once whatever its case. */
export function parseList(text: string): string[] {
  const seen = new Set<string>();
  const items: string[] = [];
  for (const part of text.split(",")) {
    const item = part.trim();
    if (item.length === 0 || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    items.push(item);
  }
  return items;
}

/** A value as the form's text: a list as "a, b"; anything that is not a string, number or list (null) as empty. */
function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(asText).join(", ");
  return "";
}

/** A field's value in the form, from what the entity (or a new one's default) has. */
function formValue(field: UiField, value: unknown): FieldValue {
  switch (field.kind) {
    case "Boolean":
      return value === true;
    case "Secret":
      // Never sent to the browser: the field starts empty, and empty keeps the stored one.
      return "";
    case "Choice":
      return value === null || value === undefined ? (field.required ? (field.choices?.[0] ?? "") : "") : asText(value);
    case "Bytes":
      // A count of bytes, shown as the size it is ("1 TiB"); none is empty.
      return typeof value === "number" ? formatSize(value) : "";
    default:
      return asText(value);
  }
}

/** A new entity's form: every field at its default. */
export function newForm(fields: readonly UiField[]): EntityForm {
  return { values: Object.fromEntries(fields.map((f) => [f.name, formValue(f, f.default)])), remove: {} };
}

/** An existing entity's form: its values, its secrets empty. */
export function entityForm(fields: readonly UiField[], entity: EntityRecord): EntityForm {
  return { values: Object.fromEntries(fields.map((f) => [f.name, formValue(f, entity[f.name])])), remove: {} };
}

function text(values: FormValues, field: UiField): string {
  const value = values[field.name];
  return typeof value === "string" ? value : "";
}

/** "':', '/' or '\'", with whitespace named rather than shown. */
function describeCharacters(characters: string): string {
  const names = [...new Set(characters)].map((c) => (c === " " ? "spaces" : c === "\t" ? "tabs" : `'${c}'`));
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** "1 to 64 characters, without ':'": what a Text, Secret or List item may be. */
function describeText(field: UiField, minimum: number): string | null {
  const parts: string[] = [];
  if (field.maxLength !== null) parts.push(minimum > 0 ? `${minimum} to ${field.maxLength} characters` : `at most ${field.maxLength} characters`);
  if (field.forbidden) parts.push(`without ${describeCharacters(field.forbidden)}`);
  return parts.length > 0 ? parts.join(", ") : null;
}

function textFits(field: UiField, value: string): boolean {
  return (field.maxLength === null || value.length <= field.maxLength) && ![...(field.forbidden ?? "")].some((c) => value.includes(c));
}

function describeRange(field: UiField): string {
  if (field.min !== null && field.max !== null) return `between ${field.min} and ${field.max}`;
  if (field.min !== null) return `at least ${field.min}`;
  if (field.max !== null) return `at most ${field.max}`;
  return "";
}

const lineBreak = /[\r\n]/;

/** Why one field's value cannot be sent (the server's rule for it, from its descriptor), or null. */
function fieldProblem(field: UiField, values: FormValues, form: EntityForm, stored: ReadonlySet<string>): string | null {
  const raw = text(values, field);
  const value = raw.trim();
  const required = `${field.label} is required.`;
  switch (field.kind) {
    case "Boolean":
      return null;
    case "Text": {
      if (lineBreak.test(raw)) return `${field.label} cannot contain line breaks.`;
      const rule = describeText(field, field.required ? 1 : 0);
      if (value.length === 0) return field.required ? (rule ? `${field.label} must be ${rule}.` : required) : null;
      return textFits(field, value) ? null : `${field.label} must be ${rule}.`;
    }
    case "Secret": {
      if (form.remove[field.name]) return null;
      if (lineBreak.test(raw)) return `${field.label} cannot contain line breaks.`;
      if (value.length === 0) return field.required && !stored.has(field.name) ? required : null;
      return textFits(field, raw) ? null : `${field.label} must be ${describeText(field, 1)}.`;
    }
    case "Integer":
    case "Number": {
      if (value.length === 0) return field.required ? required : null;
      const number = field.kind === "Integer" ? (/^-?\d+$/.test(value) ? Number(value) : Number.NaN) : /^-?(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : Number.NaN;
      const inRange = !Number.isNaN(number) && (field.min === null || number >= field.min) && (field.max === null || number <= field.max);
      if (inRange) return null;
      const range = describeRange(field);
      return `${field.label} must be ${field.kind === "Integer" ? "a whole number" : "a number"}${range ? ` ${range}` : ""}.`;
    }
    case "Bytes": {
      if (value.length === 0) return field.required ? required : null;
      return sizeProblem(field.label, value, field.min, field.max);
    }
    case "Choice": {
      const choices = field.choices ?? [];
      if (value.length === 0 && !field.required) return null;
      return choices.includes(value) ? null : `${field.label} must be ${describeChoices(choices)}.`;
    }
    case "List": {
      if (lineBreak.test(raw)) return `${field.label} cannot contain line breaks.`;
      const items = parseList(raw);
      if (items.length === 0) return field.required ? required : null;
      return items.every((item) => textFits(field, item)) ? null : `${field.label}: each must be ${describeText(field, 0)}.`;
    }
  }
}

function describeChoices(choices: readonly string[]): string {
  return choices.length <= 1 ? (choices[0] ?? "one of the choices") : `${choices.slice(0, -1).join(", ")} or ${choices[choices.length - 1]}`;
}

/**
 * The first reason the form cannot be sent, in the fields' order: each field's descriptor first,
 * then the entity's own `checks` for it. `stored`: the secrets the entity already has, which an
 * empty field keeps.
 */
export function formProblem(
  fields: readonly UiField[],
  form: EntityForm,
  stored: ReadonlySet<string>,
  checks: Readonly<Record<string, FieldCheck>> = {},
): FieldProblem | null {
  for (const field of fields) {
    const own = fieldProblem(field, form.values, form, stored);
    if (own) return { message: own, field: field.name };
    const check = checks[field.name];
    const extra = check && field.kind !== "Boolean" ? check(text(form.values, field), form.values) : null;
    if (extra) return { message: extra, field: field.name };
  }
  return null;
}

/** One field as the server takes it: text trimmed, an empty optional value null, numbers as numbers, a list as its items. */
function requestValue(field: UiField, form: EntityForm): unknown {
  const raw = form.values[field.name];
  if (field.kind === "Boolean") return raw === true;
  const value = typeof raw === "string" ? raw : "";
  switch (field.kind) {
    case "Secret":
      // null keeps the stored one (or none); "" removes it. A secret is sent as typed: spaces may be part of it.
      if (form.remove[field.name]) return "";
      return value.trim() === "" ? null : value;
    case "Integer":
    case "Number":
      return value.trim() === "" ? null : Number(value.trim());
    case "Bytes":
      return value.trim() === "" ? null : (parseSize(value).bytes ?? null);
    case "List":
      return parseList(value);
    default:
      return value.trim() === "" ? null : value.trim();
  }
}

/**
 * The request of a form: every field by its name. `originalName` lets a test of a saved entity use
 * its stored secrets; `force` saves one whose test failed.
 */
export function entityRequest(fields: readonly UiField[], form: EntityForm, options: { force?: boolean; originalName?: string | null } = {}): EntityRequest {
  const request: EntityRequest = Object.fromEntries(fields.map((f) => [f.name, requestValue(f, form)]));
  request.force = options.force ?? false;
  if (options.originalName) request.originalName = options.originalName;
  return request;
}

/** The change that only turns an entity on or off: everything else as it is, its stored secrets kept. */
export function toggleRequest(fields: readonly UiField[], entity: EntityRecord, enabled: boolean): EntityRequest {
  return { ...entityRequest(fields, entityForm(fields, entity)), enabled };
}

/** The 422 a save answers when the entity's test failed, with that test; null for any other failure. */
export function asSaveRefusal<TTest extends { ok: boolean }>(error: unknown): { error: string; test: TTest } | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const body = error.body;
  if (!body || typeof body !== "object" || !("error" in body) || !("test" in body)) return null;
  const { error: message, test } = body;
  if (typeof message !== "string" || !test || typeof test !== "object" || !("ok" in test) || typeof test.ok !== "boolean") return null;
  return { error: message, test: test as TTest };
}

/** What a failed call says, and the field it names (a 400's `field`) when it names one. */
export function callProblem(error: Error): FieldProblem {
  const body = error instanceof ApiError ? error.body : null;
  const field = body && typeof body === "object" && "field" in body && typeof body.field === "string" && body.field !== "" ? body.field : null;
  return { message: error.message, field };
}
