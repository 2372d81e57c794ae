import type { FileEntry, FileTestResult } from "../api/types";
import { bytes, milliseconds, rate } from "./format";

export const contentRoot = "/content";

const video = new Set(["mkv", "mp4", "webm", "m4v"]);
const audio = new Set(["mp3", "m4a", "ogg", "wav", "flac"]);

/** Whether the browser may play a file inline, from its extension; whether the codec inside plays is only known by trying. */
export function mediaKind(name: string): "video" | "audio" | null {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  if (video.has(extension)) return "video";
  if (audio.has(extension)) return "audio";
  return null;
}

/** The links above the listing: "/content/tv/Show" gives content, tv, Show with their paths. */
export function breadcrumbs(path: string): { name: string; path: string }[] {
  const parts = path.split("/").filter((p) => p.length > 0);
  return parts.map((name, i) => ({ name, path: "/" + parts.slice(0, i + 1).join("/") }));
}

/** Folders first, then by name as people count (Episode 2 before Episode 10). */
export function sortEntries(entries: readonly FileEntry[]): FileEntry[] {
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
  return [...entries].sort((a, b) => (a.isDirectory === b.isDirectory ? collator.compare(a.name, b.name) : a.isDirectory ? -1 : 1));
}

export function filesPageUrl(path: string): string {
  return `/files?${new URLSearchParams({ path }).toString()}`;
}

/** "first byte 12 ms, 41.9 MB/s over 304 KB" */
export function describeTest(result: FileTestResult): string {
  return `first byte ${milliseconds(result.firstByteMs)}, ${rate(result.bytesPerSecond)} over ${bytes(result.bytes)}`;
}

const mediaErrors: Record<number, string> = {
  1: "the download was stopped",
  2: "a network error interrupted it",
  3: "the browser could not decode it",
  4: "the browser cannot play this format or codec",
};

/** The browser's own reason a media element failed, in a sentence. */
export function describeMediaError(error: { code: number; message: string } | null): string {
  if (!error) return "The browser could not play this file.";
  const reason = mediaErrors[error.code] ?? `error ${error.code}`;
  return `The browser could not play this file: ${reason}${error.message ? ` (${error.message})` : ""}.`;
}
