/*
 * The shapes of the queue, history and files calls under /ui/api/ (docs/ui.md). Every one is taken
 * from schema.d.ts, which openapi-typescript generates from openapi.json, the server's own OpenAPI
 * document (the server's tests keep that copy equal to what it serves; `npm run gen:api` after a
 * change). Where the document says only "string" or "number", a narrower union is laid over it.
 */
import type { components, paths } from "./schema";

type Schemas = components["schemas"];
type JsonBody<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { "application/json": infer B } } } } ? B : never;

/** -1 low, 0 normal, 1 high, 2 force (SABnzbd's numbers, which the server keeps). */
export type Priority = -1 | 0 | 1 | 2;

export type QueueStatus = "Queued" | "Paused" | "Processing";

/** GET /ui/api/queue */
export type QueueView = Omit<Schemas["UiQueueView"], "jobs"> & {
  /** In the order they will run. */
  jobs: QueueJob[];
};

export type QueueJob = Omit<Schemas["UiQueueJob"], "priority" | "status"> & { priority: Priority; status: QueueStatus };

/** The shared fields of POST /ui/api/queue/upload (multipart) and POST /ui/api/queue/url. */
export interface AddOptions {
  category?: string;
  priority?: Priority;
  /** Only with exactly one file. */
  name?: string;
  password?: string;
}

/** POST /ui/api/queue/url */
export type AddUrlRequest = JsonBody<"/ui/api/queue/url"> & AddOptions & { url: string };

/** What POST /ui/api/queue/upload and /queue/url answer: each file either added or refused with the reason. */
export type AddResult = Schemas["UiAddResult"];
export type AddedFile = Schemas["UiAdded"];
export type RefusedFile = Schemas["UiRefused"];

/** POST /ui/api/queue/pause and /queue/resume */
export type QueueState = Schemas["UiQueuePaused"];

/** POST /ui/api/jobs/{id}/priority */
export type PriorityRequest = JsonBody<"/ui/api/jobs/{id}/priority"> & { priority: Priority };

/** POST /ui/api/jobs/{id}/delete; deleteFiles: for a history job, also remove its files from the library. */
export type DeleteJobRequest = JsonBody<"/ui/api/jobs/{id}/delete">;

/** POST /ui/api/jobs/{id}/retry */
export type RetryResult = Schemas["UiRetried"];

export type HistoryStatus = "Completed" | "Failed";
export type HistoryFilter = "all" | "completed" | "failed";

/** GET /ui/api/history?page=&pageSize=&search=&status= (newest first) */
export type HistoryPage = Omit<Schemas["UiHistoryPage"], "jobs"> & { jobs: HistoryJob[] };

/** contentPath: where the job's files are in the library, e.g. "/content/tv/Show.S01E01"; the Files page's path. */
export type HistoryJob = Omit<Schemas["UiHistoryJob"], "status"> & { status: HistoryStatus };

/** GET /ui/api/files?path=; parent is null at /content, the top. */
export type FileListing = Omit<Schemas["UiFileListing"], "entries"> & { entries: FileEntry[] };

/** A library file's health as the Files page shows it: null for folders, and for a file not checked yet. */
export type FileHealthBadge = HealthState | "action-needed";

/** id and health: a library file's (null for folders). */
export type FileEntry = Omit<Schemas["UiFileEntry"], "health"> & { health?: FileHealthBadge | null };

/** POST /ui/api/files/test */
export type FileTestRequest = JsonBody<"/ui/api/files/test"> & { path: string };
export type FileTestResult = Schemas["UiFileTestResult"];

/*
 * The Settings page (GET/POST /ui/api/settings and the calls under it). A refused change answers
 * { error }; a provider whose test failed answers 422 with the test (ProviderSaveRefused).
 */

export type SettingSection = "Connections" | "Bandwidth" | "Streaming" | "Disk cache" | "Queue" | "SABnzbd" | "WebDAV" | "Health" | "Mount";
export type SettingType = "Number" | "Bytes" | "Boolean" | "Text" | "Choice" | "List";

/** GET /ui/api/settings, and what every successful settings change answers. */
export type SettingsView = Omit<Schemas["UiSettingsView"], "providers" | "settings" | "arr" | "providerFields" | "arrFields"> & {
  providers: Provider[];
  settings: Setting[];
  arr: ArrInstance[];
  providerFields: UiField[];
  arrFields: UiField[];
};

/** editable false: from a file, the environment or the command line (`source` says which); read-only here. */
export type Provider = Schemas["UiProvider"];

/** value null: automatic (`automatic` says what that is); locked: set above the UI (environment, command line). */
export type Setting = Omit<Schemas["UiSetting"], "section" | "type"> & { section: SettingSection; type: SettingType };

export type Budget = Schemas["LimiterView"];
export type BudgetPool = Schemas["PoolView"];

/**
 * POST /ui/api/settings. A text is the new value, "" automatic (or an empty list), and null drops
 * the UI's value so the file's or the default applies again (the document types only the text).
 */
export interface SettingsChange {
  values: Record<string, string | null>;
}

export type ProviderTest = Schemas["UiProviderTest"];
export type ProviderTestStep = Schemas["UiTestStep"];
/** What a save answers (422) when the provider's test failed; the same request with force saves it anyway. */
export type ProviderSaveRefused = Schemas["UiProviderSaveRefused"];

/**
 * One field of a listed entity (a provider, a Sonarr/Radarr instance) as the server declares it
 * (the settings view's providerFields and arrFields): the editor's form, its checks and the request
 * are all derived from these. `name` is the field's JSON property in the entity and in its request;
 * a Secret field `x` appears in the entity only as `hasX`. `forbidden`: characters the value may not
 * hold (line breaks never). `account`: changing it re-points the account, so a save tests first.
 */
export type UiField = Omit<Schemas["UiField"], "kind"> & { kind: UiFieldKind };

export type UiFieldKind = "Text" | "Integer" | "Number" | "Boolean" | "Choice" | "Secret" | "List" | "Bytes";

/** A refused call's answer (400): the sentence, and the field at fault (its `name`) when there is one. */
export type UiFieldError = Schemas["UiError"];

/**
 * The body of a listed entity's add, change and test calls (a provider, a Sonarr/Radarr): every field
 * by its name, as lib/entities.ts builds it from the field descriptors; force saves one whose test
 * failed; originalName lets a test of a saved one use its stored secret.
 */
export type EntityRequest = { [field: string]: unknown; force?: boolean; originalName?: string | null };

/** POST /ui/api/settings/api-key */
export type ApiKey = Schemas["UiApiKey"];

/** POST /ui/api/settings/webdav: password empty or null keeps the current one. */
export type WebDavAccountRequest = JsonBody<"/ui/api/settings/webdav">;

/*
 * Sonarr and Radarr (the Settings page): the instances repairs go through. Their API keys, like
 * provider passwords, are never sent back, only whether one is stored.
 */

/** editable false: from a file, the environment or the command line (`source` says which). */
export type ArrInstance = Schemas["UiArrInstance"];

/** ok when system/status answered as the configured kind with the key; error says why not. */
export type ArrTest = Schemas["UiArrTest"];

/** What a save answers (422) when the instance's test failed; the same request with force saves it anyway. */
export type ArrSaveRefused = Schemas["UiArrSaveRefused"];

/*
 * The Health page (GET /ui/api/health and the actions under /ui/api/health/files/{id}/).
 */

export type HealthState = "healthy" | "degraded" | "broken" | "unknown";
export type RepairState = "none" | "deferred" | "action-needed" | "ignored" | "dry-run" | "repairing";

/** The `state` query of GET /ui/api/health: a state, every file, or those whose repair waits for the user. */
export type HealthFilter = "all" | HealthState | "action";

/** GET /ui/api/health?state=&offset=&limit= (problems first: broken, degraded, unknown, then healthy by next check). */
export type HealthView = Omit<Schemas["UiHealthView"], "files"> & { files: HealthFile[] };
export type HealthCounts = Schemas["UiHealthCounts"];
export type HealthPolicy = Schemas["UiHealthPolicy"];
export type HealthCheckRunning = Schemas["UiHealthCheckRunning"];
export type Par2Running = Schemas["UiPar2Running"];
export type HealthPatches = Schemas["UiHealthPatches"];
export type HealthStats = Schemas["UiHealthStats"];
export type HealthAuditEntry = Schemas["UiHealthAuditEntry"];

/** suspectSegments: answered 430 once, confirmed or cleared by a check after the confirm delay. */
export type HealthFile = Omit<Schemas["UiHealthFile"], "state" | "repair"> & { state: HealthState; repair: RepairState };

/** GET …/par2: what a PAR2 repair of the file's release would fetch, or why it cannot be made. */
export type Par2Plan = Schemas["UiPar2Plan"];

/** What POST …/check, …/repair and …/ignore answer: a sentence, and the file as it is now (null once it left the library). */
export type HealthActionResult = Omit<Schemas["UiHealthActionResult"], "file"> & { file: HealthFile | null };

/*
 * Settings → Integrations (GET /ui/api/integrations, POST /ui/api/integrations/check).
 */

/** The managed rclone mount, on the Integrations page and in each dashboard tick. */
export type MountState = "off" | "starting" | "mounted" | "failed" | "stopping";
export type MountView = Omit<Schemas["MountView"], "state"> & { state: MountState };

/** What to enter in Sonarr/Radarr, rclone, docker-compose and Plex/Jellyfin, and the managed mount's state. */
export type Integrations = Omit<Schemas["UiIntegrations"], "sab" | "mediaServer" | "mount"> & {
  sab: SabClientValues;
  mediaServer: MediaServerValues;
  mount: MountView;
};

/** source: "request" (host and port as the browser reached NzbDav) or "public URL" (NzbDav:WebDav:PublicUrl). */
export type SabClientValues = Omit<Schemas["UiSabClient"], "source"> & { source: "request" | "public URL" };
export type CategoryFolder = Schemas["UiCategoryFolder"];
export type RemotePathMapping = Schemas["UiRemotePathMapping"];
export type RcloneValues = Schemas["UiRclone"];
export type ComposeValues = Schemas["UiCompose"];
/** libraries: with .strm entries, the folders to give Jellyfin (empty with symlinks). */
export type MediaServerValues = Omit<Schemas["UiMediaServer"], "completedEntries"> & { completedEntries: "Symlink" | "Strm" };

/** What the mount check found: each check in order, ok or not, with its sentence. */
export type MountCheckResult = Schemas["UiMountCheckResult"];
export type MountCheck = Schemas["UiMountCheck"];

/** GET /ui/api/traffic: bytes per consumer and provider over the last 24 h (by hour) or 30 d (by day). */
export type TrafficView = Schemas["UiTrafficView"];
export type TrafficSeries = Schemas["UiTrafficSeries"];
export type TrafficFile = Schemas["UiTrafficFile"];
export type TrafficRange = "24h" | "30d";
