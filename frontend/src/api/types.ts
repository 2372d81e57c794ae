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
export type FileListing = Schemas["UiFileListing"];
export type FileEntry = Schemas["UiFileEntry"];

/** POST /ui/api/files/test */
export type FileTestRequest = JsonBody<"/ui/api/files/test"> & { path: string };
export type FileTestResult = Schemas["UiFileTestResult"];
