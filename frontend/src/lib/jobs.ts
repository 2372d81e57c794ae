import { bytes } from "./format";
import type { AddOptions, Priority } from "../api/types";

export const priorities: { value: Priority; label: string }[] = [
  { value: -1, label: "Low" },
  { value: 0, label: "Normal" },
  { value: 1, label: "High" },
  { value: 2, label: "Force" },
];

export function priorityLabel(priority: number): string {
  return priorities.find((p) => p.value === priority)?.label ?? String(priority);
}

/** SABnzbd's "no category" is "*"; the library files those jobs under a folder named default, and so does the UI. */
export function categoryLabel(category: string): string {
  return category === "*" || category === "" ? "default" : category;
}

/** What the add panel's shared fields hold; empty text means "let the server decide". */
export interface AddFields {
  category: string;
  priority: Priority;
  name: string;
  password: string;
}

/** The fields as the server takes them: only what was filled in, the name only where it applies. */
export function addOptions(fields: AddFields, fileCount: number): AddOptions {
  const options: AddOptions = { priority: fields.priority };
  if (fields.category) options.category = fields.category;
  // A name given to several files at once would make them collide; the server refuses it.
  if (fileCount <= 1 && fields.name.trim()) options.name = fields.name.trim();
  if (fields.password) options.password = fields.password;
  return options;
}

/** The multipart body of POST /ui/api/queue/upload: every file under the one field name `files`. */
export function uploadForm(files: readonly File[], fields: AddFields): FormData {
  const form = new FormData();
  for (const file of files) form.append("files", file, file.name);
  const options = addOptions(fields, files.length);
  if (options.category !== undefined) form.append("category", options.category);
  if (options.priority !== undefined) form.append("priority", String(options.priority));
  if (options.name !== undefined) form.append("name", options.name);
  if (options.password !== undefined) form.append("password", options.password);
  return form;
}

/** Why the add panel cannot send what it holds, or null when it can. */
export function addProblem(fileCount: number, url: string): string | null {
  const trimmed = url.trim();
  if (fileCount === 0 && !trimmed) return "Choose or drop .nzb files, or enter a URL.";
  if (fileCount > 0 && trimmed) return "Add either files or a URL, not both at once.";
  if (trimmed && !/^https?:\/\//i.test(trimmed)) return "The URL must start with http:// or https://.";
  return null;
}

/** "26–50 of 73": which entries a page shows. */
export function pageRange(page: number, pageSize: number, total: number): string {
  if (total <= 0) return "0 of 0";
  const first = Math.min(total, (page - 1) * pageSize + 1);
  const last = Math.min(total, page * pageSize);
  return `${first}–${last} of ${total}`;
}

export function pageCount(pageSize: number, total: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** The queue's size (and a failed job's): what the NZB lists, as posted. */
export const queueSizeHelp =
  "The NZB's articles as posted, yEnc-encoded: the files themselves come to a few per cent less, which History shows once the job completes.";

/** A completed job's size: its files as they play. */
export const historySizeHelp = "The files' size as they play; the articles on Usenet were a few per cent larger (yEnc's encoding).";

/** "Uploading 45 % (450 KB of 1.0 MB)", then "Uploaded 1.0 MB: checking the NZB…" while the server parses it. */
export function uploadProgressText(progress: { sent: number; total: number }): string {
  if (progress.total > 0 && progress.sent >= progress.total) return `Uploaded ${bytes(progress.total)}: checking the NZB…`;
  const share = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return `Uploading ${share} % (${bytes(progress.sent)} of ${bytes(progress.total)})`;
}
