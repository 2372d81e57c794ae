import { describe, expect, it } from "vitest";
import type { FileEntry } from "../api/types";
import { breadcrumbs, describeMediaError, describeTest, filesPageUrl, mediaKind, sortEntries } from "./files";

describe("mediaKind", () => {
  it("offers a player for the containers browsers may play, by extension in any case", () => {
    expect(["a.mkv", "a.MP4", "a.webm", "a.m4v"].map(mediaKind)).toEqual(["video", "video", "video", "video"]);
    expect(["a.mp3", "a.m4a", "a.ogg", "a.wav", "a.FLAC"].map(mediaKind)).toEqual(["audio", "audio", "audio", "audio", "audio"]);
  });

  it("offers none for anything else", () => {
    expect(mediaKind("Show.S01E01.rar")).toBeNull();
    expect(mediaKind("mkv")).toBeNull();
    expect(mediaKind("archive.mkv.par2")).toBeNull();
  });
});

describe("breadcrumbs", () => {
  it("gives each folder on the way with its own path", () => {
    expect(breadcrumbs("/content/tv/Show S01")).toEqual([
      { name: "content", path: "/content" },
      { name: "tv", path: "/content/tv" },
      { name: "Show S01", path: "/content/tv/Show S01" },
    ]);
    expect(breadcrumbs("/content/")).toEqual([{ name: "content", path: "/content" }]);
  });
});

const entry = (name: string, isDirectory: boolean): FileEntry => ({
  name,
  path: `/content/${name}`,
  isDirectory,
  size: 1,
  modified: "2025-01-01T00:00:00Z",
  webDavUrl: "",
  mountPath: "",
});

describe("sortEntries", () => {
  it("puts folders first, then names in the order people count", () => {
    const sorted = sortEntries([entry("b 10.mkv", false), entry("zeta", true), entry("b 2.mkv", false), entry("Alpha", true)]);
    expect(sorted.map((e) => e.name)).toEqual(["Alpha", "zeta", "b 2.mkv", "b 10.mkv"]);
  });
});

describe("filesPageUrl", () => {
  it("encodes the path", () => {
    expect(filesPageUrl("/content/tv")).toBe("/files?path=%2Fcontent%2Ftv");
  });
});

describe("describeTest", () => {
  it("reads like a sentence", () => {
    expect(describeTest({ firstByteMs: 12.4, bytes: 304_000, seconds: 0.01, bytesPerSecond: 41_900_000 })).toBe("first byte 12 ms, 41.9 MB/s over 304 KB");
  });
});

describe("describeMediaError", () => {
  it("gives the browser's reason", () => {
    expect(describeMediaError({ code: 4, message: "DEMUXER_ERROR_NO_SUPPORTED_STREAMS" })).toBe(
      "The browser could not play this file: the browser cannot play this format or codec (DEMUXER_ERROR_NO_SUPPORTED_STREAMS).",
    );
    expect(describeMediaError(null)).toBe("The browser could not play this file.");
  });
});
