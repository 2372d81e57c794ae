import type { UiField } from "../api/types";

/*
 * The fields of a provider and of a Sonarr/Radarr instance, as the server declares them. The
 * server's settings view is to supply these very arrays (`providerFields`, `arrFields`); until it
 * does they live here, and each card takes them as a prop, so switching is one line per card.
 */

const field = (name: string, label: string, kind: UiField["kind"], rest: Partial<Omit<UiField, "name" | "label" | "kind">> = {}): UiField => ({
  name,
  label,
  kind,
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
  ...rest,
});

export const providerFields: UiField[] = [
  field("name", "Name", "Text", { required: true, maxLength: 64, forbidden: ":" }),
  field("host", "Host", "Text", { required: true, maxLength: 253, forbidden: " \t", account: true }),
  field("port", "Port", "Integer", { min: 1, max: 65535, default: 563, account: true }),
  field("useTls", "TLS", "Boolean", { default: true, account: true }),
  field("allowUntrustedCertificate", "Allow untrusted certificate", "Boolean", { default: false, account: true }),
  field("user", "User", "Text", { account: true }),
  field("password", "Password", "Secret", { account: true }),
  field("maxConnections", "Max connections", "Integer", { min: 1, max: 500, default: 10 }),
  field("role", "Role", "Choice", { choices: ["Primary", "Backup"], default: "Primary" }),
  field("priority", "Priority", "Integer", { min: 0, max: 1000, default: 0, help: "Lower is tried first." }),
  field("pipelineDepth", "Pipeline depth", "Integer", { min: 1, max: 64, default: 4 }),
  field("enabled", "Enabled", "Boolean", { default: true }),
];

export const arrFields: UiField[] = [
  field("name", "Name", "Text", { required: true, maxLength: 64, forbidden: ":/\\?#" }),
  field("kind", "Kind", "Choice", { required: true, choices: ["Sonarr", "Radarr"], account: true }),
  field("url", "URL", "Text", { required: true, account: true, placeholder: "http://sonarr:8989" }),
  field("apiKey", "API key", "Secret", { required: true, account: true }),
  field("categories", "Categories", "List", { maxLength: 64, forbidden: ":/\\", help: "Empty: every category." }),
  field("timeoutSeconds", "Timeout (s)", "Number", { min: 1, max: 300, default: 15 }),
  field("enabled", "Enabled", "Boolean", { default: true }),
];
