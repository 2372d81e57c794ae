/*
 * Every address the UI calls, built here and nowhere else. Each one is named by its path in the
 * server's OpenAPI document (schema.d.ts), so a route the server no longer has, a misspelt path
 * parameter or a query parameter it does not take fails `tsc`; path parameters are URL-encoded
 * here, once, and query strings are built here, once.
 */
import type { paths as ApiSchema } from "./schema";

type ApiPath = keyof ApiSchema;
/** The operation(s) a path has: a route is either read (GET) or changed (POST). */
type Operation<P extends ApiPath> = NonNullable<ApiSchema[P]["get"]> | NonNullable<ApiSchema[P]["post"]>;
type PathParams<P extends ApiPath> = Exclude<Operation<P>["parameters"]["path"], undefined>;
type QueryParams<P extends ApiPath> = Exclude<Operation<P>["parameters"]["query"], undefined>;
type Parts<P extends ApiPath> = ([PathParams<P>] extends [never] ? { path?: never } : { path: PathParams<P> }) &
  ([QueryParams<P>] extends [never] ? { query?: never } : { query?: QueryParams<P> });
/** A route with path parameters must be given them; one without may be called with nothing. */
type PartsArgument<P extends ApiPath> = [PathParams<P>] extends [never] ? [parts?: Parts<P>] : [parts: Parts<P>];

type QueryValue = string | number | boolean | null | undefined;

/** `template` with its `{name}` parameters filled in (encoded) and the query appended; an undefined or null query value is left out. */
function route<P extends ApiPath>(template: P, ...[parts]: PartsArgument<P>): string {
  const values = (parts?.path ?? {}) as Record<string, string>;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries((parts?.query ?? {}) as Record<string, QueryValue>)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** The calls on one kind of listed entity (providers, Sonarr/Radarr): add, test, change and delete by its current name. */
export interface EntityPaths {
  add: string;
  test: string;
  change(name: string): string;
  remove(name: string): string;
}

export type JobAction = "pause" | "resume" | "priority" | "delete" | "retry";
export type HealthFileAction = "check" | "repair" | "par2" | "ignore";

export const apiPaths = {
  /** The server's own health check (outside the UI API, no login needed). */
  serverHealth: "/health",

  session: route("/ui/api/session"),
  setup: route("/ui/api/setup"),
  login: route("/ui/api/login"),
  logout: route("/ui/api/logout"),
  changePassword: route("/ui/api/account/password"),

  /** The dashboard's feed (server-sent events). */
  live: route("/ui/api/live"),
  logs: (query: { level: string; source: string; search: string; limit: number }) => route("/ui/api/logs", { query }),
  logsDownload: (query: { level: string; source: string; search: string }) => route("/ui/api/logs/download", { query }),
  logsStartupDismiss: route("/ui/api/logs/startup/dismiss"),

  queue: route("/ui/api/queue"),
  upload: route("/ui/api/queue/upload"),
  addUrl: route("/ui/api/queue/url"),
  queuePause: (pause: boolean) => (pause ? route("/ui/api/queue/pause") : route("/ui/api/queue/resume")),
  history: (query: { page: number; pageSize: number; search: string; status: string }) => route("/ui/api/history", { query }),
  job: (id: string, action: JobAction) => route(`/ui/api/jobs/{id}/${action}`, { path: { id } }),
  /** The stored NZB of a job, as a download. */
  jobNzb: (id: string) => route("/ui/api/jobs/{id}/nzb", { path: { id } }),

  files: (path: string) => route("/ui/api/files", { query: { path } }),
  /** A library file's bytes, for a player or (`download`) as an attachment. */
  rawFile: (path: string, download = false) => route("/ui/api/files/raw", { query: { path, download: download || undefined } }),
  fileTest: route("/ui/api/files/test"),

  settings: route("/ui/api/settings"),
  providers: {
    add: route("/ui/api/settings/providers"),
    test: route("/ui/api/settings/providers/test"),
    change: (name: string) => route("/ui/api/settings/providers/{name}", { path: { name } }),
    remove: (name: string) => route("/ui/api/settings/providers/{name}/delete", { path: { name } }),
  } satisfies EntityPaths,
  arr: {
    add: route("/ui/api/settings/arr"),
    test: route("/ui/api/settings/arr/test"),
    change: (name: string) => route("/ui/api/settings/arr/{name}", { path: { name } }),
    remove: (name: string) => route("/ui/api/settings/arr/{name}/delete", { path: { name } }),
  } satisfies EntityPaths,
  regenerateApiKey: route("/ui/api/settings/api-key"),
  webDavAccount: route("/ui/api/settings/webdav"),

  health: (query: { state: string; offset: number; limit: number }) => route("/ui/api/health", { query }),
  healthFile: (id: string, action: HealthFileAction) => route(`/ui/api/health/files/{id}/${action}`, { path: { id } }),

  traffic: (range: string) => route("/ui/api/traffic", { query: { range } }),

  integrations: route("/ui/api/integrations"),
  mountCheck: route("/ui/api/integrations/check"),
};
