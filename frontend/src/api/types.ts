/*
 * The shapes of the queue, history and files calls under /ui/api/ (docs/ui.md), as the server
 * sends them (camelCase JSON). Kept in one file so they can be checked against the server's
 * OpenAPI document.
 */

/** -1 low, 0 normal, 1 high, 2 force (SABnzbd's numbers, which the server keeps). */
export type Priority = -1 | 0 | 1 | 2;

export type QueueStatus = "Queued" | "Paused" | "Processing";

/** GET /ui/api/queue */
export interface QueueView {
  paused: boolean;
  bytesPerSecond: number;
  timeLeftSeconds: number | null;
  categories: string[];
  /** In the order they will run. */
  jobs: QueueJob[];
}

export interface QueueJob {
  id: string;
  name: string;
  category: string;
  priority: Priority;
  status: QueueStatus;
  totalBytes: number;
  percentage: number;
  /** What a running job is doing now; null when it is not running. */
  step: string | null;
  timeLeftSeconds: number | null;
  addedAt: string;
  hasPassword: boolean;
}

/** The shared fields of POST /ui/api/queue/upload (multipart) and POST /ui/api/queue/url. */
export interface AddOptions {
  category?: string;
  priority?: Priority;
  /** Only with exactly one file. */
  name?: string;
  password?: string;
}

/** POST /ui/api/queue/url */
export interface AddUrlRequest extends AddOptions {
  url: string;
}

/** What POST /ui/api/queue/upload and /queue/url answer: each file either added or refused with the reason. */
export interface AddResult {
  added: AddedFile[];
  refused: RefusedFile[];
}

export interface AddedFile {
  file: string;
  id: string;
}

export interface RefusedFile {
  file: string;
  error: string;
}

/** POST /ui/api/queue/pause and /queue/resume */
export interface QueueState {
  paused: boolean;
}

/** POST /ui/api/jobs/{id}/priority */
export interface PriorityRequest {
  priority: Priority;
}

/** POST /ui/api/jobs/{id}/delete */
export interface DeleteJobRequest {
  /** For a history job: also remove its files from the library. */
  deleteFiles: boolean;
}

/** POST /ui/api/jobs/{id}/retry */
export interface RetryResult {
  id: string;
}

export type HistoryStatus = "Completed" | "Failed";
export type HistoryFilter = "all" | "completed" | "failed";

/** GET /ui/api/history?page=&pageSize=&search=&status= (newest first) */
export interface HistoryPage {
  total: number;
  page: number;
  pageSize: number;
  jobs: HistoryJob[];
}

export interface HistoryJob {
  id: string;
  name: string;
  category: string;
  status: HistoryStatus;
  failMessage: string | null;
  totalBytes: number;
  addedAt: string;
  completedAt: string | null;
  storagePath: string | null;
  /** Where the job's files are in the library, e.g. "/content/tv/Show.S01E01"; the Files page's path. */
  contentPath: string | null;
}

/** GET /ui/api/files?path= */
export interface FileListing {
  path: string;
  /** Null at /content, the top. */
  parent: string | null;
  webDavUrl: string;
  mountPath: string;
  entries: FileEntry[];
}

export interface FileEntry {
  name: string;
  path: string;
  isDirectory: boolean;
  size: number;
  modified: string;
  webDavUrl: string;
  mountPath: string;
}

/** POST /ui/api/files/test */
export interface FileTestRequest {
  path: string;
}

export interface FileTestResult {
  firstByteMs: number;
  bytes: number;
  seconds: number;
  bytesPerSecond: number;
}
