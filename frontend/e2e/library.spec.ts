import { expect, request as playwrightRequest, test, type Locator, type Page } from "@playwright/test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { startServer, type RunningServer } from "./server";
import { expectOnlyRefusals, watchConsole } from "./console";
import { logIn as logInAs, nav, nextPolls, settled } from "./pages";

// The Queue, History and Files pages against the real server in demo mode: its mock Usenet server
// holds the two demo releases, and the NZBs it wrote for them can be added again and complete.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

let server: RunningServer;
let demo: { webdav: string; user: string; password: string; apiKey: string; ui: string };
let videoNzb: Buffer;
let archiveNzb: Buffer;
let nzbHost: Server;
let nzbHostUrl: string;

const videoPath = "/content/default/NzbDav.Demo.Video/NzbDav.Demo.Video.mkv";

test.beforeAll(async () => {
  server = await startServer(["--demo"], /NZBDAV-DEMO url=(http:\/\/\S+) /);
  const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output());
  if (!line) throw new Error(`no demo line in:\n${server.output()}`);
  demo = { webdav: line[1]!, user: line[2]!, password: line[3]!, apiKey: line[4]!, ui: line[5]! };
  const nzbs = path.join(server.data, "demo", "nzbs");
  videoNzb = readFileSync(path.join(nzbs, "NzbDav.Demo.Video.nzb"));
  archiveNzb = readFileSync(path.join(nzbs, "NzbDav.Demo.Stored.RAR5.nzb"));

  // An indexer of one file, for "add by URL".
  nzbHost = createServer((request, response) => {
    if (request.url === "/video.nzb") {
      response.writeHead(200, { "Content-Type": "application/x-nzb" });
      response.end(videoNzb);
    } else {
      response.writeHead(404, { "Content-Type": "text/plain" });
      response.end("not here");
    }
  });
  await new Promise<void>((resolve) => nzbHost.listen(0, "127.0.0.1", resolve));
  nzbHostUrl = `http://127.0.0.1:${(nzbHost.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => (nzbHost ? nzbHost.close(resolve) : resolve(undefined)));
  await server?.stop();
});

const logIn = (page: Page) => logInAs(page, demo);
const queueItem = (page: Page, name: string) => page.getByRole("list", { name: "Queue" }).getByRole("listitem", { name, exact: true });
const historyItem = (page: Page, name: string) => page.getByRole("list", { name: "History" }).getByRole("listitem", { name, exact: true });

async function setQueuePaused(page: Page, paused: boolean) {
  await expect(page.getByTestId("queue-state")).toBeVisible();
  const button = page.getByRole("button", { name: paused ? "Pause queue" : "Resume queue" });
  if (await button.isVisible()) await button.click();
  await expect(page.getByTestId("queue-state")).toHaveText(paused ? "paused" : "running");
}

async function upload(page: Page, name: string, content: Buffer, fileName = "upload.nzb") {
  await page.getByLabel("NZB files").setInputFiles({ name: fileName, mimeType: "application/x-nzb", buffer: content });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add 1 file" }).click();
  await expect(page.getByRole("list", { name: "Add results" })).toContainText(`Added ${fileName}`);
}

/** A copy of the video's NZB whose articles no provider has: it fails, and fails again when retried. */
function withMissingArticles(nzb: Buffer): Buffer {
  const text = nzb.toString("utf8").replace(/(<segment[^>]*>)([^<]+)(<\/segment>)/g, "$1gone-$2$3");
  expect(text).toContain("gone-");
  return Buffer.from(text, "utf8");
}

async function dropFiles(page: Page, target: Locator, files: { name: string; content: Buffer }[]) {
  const payload = files.map((f) => ({ name: f.name, base64: f.content.toString("base64") }));
  const dataTransfer = await page.evaluateHandle((items) => {
    const transfer = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.base64), (c) => c.charCodeAt(0));
      transfer.items.add(new File([bytes], item.name, { type: "application/x-nzb" }));
    }
    return transfer;
  }, payload);
  await target.dispatchEvent("dragenter", { dataTransfer });
  await target.dispatchEvent("dragover", { dataTransfer });
  await expect(target).toHaveClass(/over/);
  await target.dispatchEvent("drop", { dataTransfer });
}

test("queue: pause, upload by picker, resume to History; drop two at once; add by URL", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await nav(page, "Queue");
  await expect(page.getByRole("heading", { name: "Queue", exact: true })).toBeVisible();
  await expect(page.getByText("The queue is empty.")).toBeVisible();

  // Paused, an upload waits in the queue.
  await setQueuePaused(page, true);
  await upload(page, "Picker.Upload.Video", videoNzb, "NzbDav.Demo.Video.nzb");
  const picked = queueItem(page, "Picker.Upload.Video");
  await expect(picked.getByTestId("job-status")).toHaveText("Queued");
  await expect(picked).toContainText("default");

  // Priority changes at once and stays after the next refreshes.
  await picked.getByLabel("Priority").selectOption({ label: "High" });
  await nextPolls(page, "/ui/api/queue");
  await expect(picked.getByLabel("Priority")).toHaveValue("1");

  // A job of its own can be held and let go.
  await picked.getByRole("button", { name: "Pause", exact: true }).click();
  await expect(picked.getByTestId("job-status")).toHaveText("Paused");
  await picked.getByRole("button", { name: "Resume", exact: true }).click();
  await expect(picked.getByTestId("job-status")).toHaveText("Queued");

  // Resumed, it completes and History shows it without a reload.
  await setQueuePaused(page, false);
  await expect(page.getByText("The queue is empty.")).toBeVisible({ timeout: 30_000 });
  await nav(page, "History");
  await expect(historyItem(page, "Picker.Upload.Video").getByTestId("job-status")).toHaveText("Completed");

  // Both demo NZBs dropped at once are both added.
  await nav(page, "Queue");
  await dropFiles(page, page.getByTestId("drop-zone"), [
    { name: "NzbDav.Demo.Video.nzb", content: videoNzb },
    { name: "NzbDav.Demo.Stored.RAR5.nzb", content: archiveNzb },
  ]);
  await expect(page.getByRole("list", { name: "Chosen files" }).getByRole("listitem")).toHaveCount(2);
  // A name cannot apply to two files.
  await expect(page.getByLabel(/^Name/)).toBeDisabled();
  await page.getByRole("button", { name: "Add 2 files" }).click();
  const results = page.getByRole("list", { name: "Add results" });
  await expect(results.getByRole("listitem")).toHaveCount(2);
  await expect(results).toContainText("Added NzbDav.Demo.Video.nzb");
  await expect(results).toContainText("Added NzbDav.Demo.Stored.RAR5.nzb");

  // By URL, under a name of its own.
  await page.getByLabel("Or an NZB's URL").fill(`${nzbHostUrl}/video.nzb`);
  await page.getByLabel("Name", { exact: true }).fill("Url.Added.Video");
  await page.getByRole("button", { name: "Add from URL" }).click();
  await expect(results).toHaveText("Added video.nzb");

  // A URL that answers 404 is refused with the server's reason (the browser logs the 400 itself).
  const beforeRefusal = errors.length;
  await page.getByLabel("Or an NZB's URL").fill(`${nzbHostUrl}/missing.nzb`);
  await page.getByRole("button", { name: "Add from URL" }).click();
  await expect(page.getByRole("alert")).toContainText("HTTP 404");
  expectOnlyRefusals(errors, beforeRefusal, 400);

  await nav(page, "History");
  await expect(historyItem(page, "Url.Added.Video").getByTestId("job-status")).toHaveText("Completed", { timeout: 30_000 });
  await page.getByLabel("Search the history").fill("NzbDav.Demo");
  // The two demo jobs of the start and the two dropped ones.
  await expect(page.getByTestId("page-range")).toHaveText("1–4 of 4", { timeout: 30_000 });
  await expect(page.getByRole("list", { name: "History" }).getByTestId("job-status").filter({ hasText: "Completed" })).toHaveCount(4, { timeout: 30_000 });

  expect(errors).toEqual([]);
});

test("queue: files that are not NZBs are refused at once with the reason, and nothing is queued or kept", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await nav(page, "Queue");
  const jobs = async () => {
    const queue = (await (await page.request.get(`${server.url}/ui/api/queue`)).json()) as { jobs: unknown[] };
    const history = (await (await page.request.get(`${server.url}/ui/api/history?pageSize=200`)).json()) as { total: number };
    return { queued: queue.jobs.length, history: history.total };
  };
  const before = await jobs();

  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const html = Buffer.from("<!DOCTYPE html>\n<html><head><title>404</title></head><body>Not found</body></html>\n", "utf8");
  await page.getByLabel("NZB files").setInputFiles([
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("remember the milk\n", "utf8") },
    { name: "cover.png", mimeType: "image/png", buffer: png },
    { name: "indexer-error.nzb", mimeType: "application/x-nzb", buffer: html },
    { name: "empty.nzb", mimeType: "application/x-nzb", buffer: Buffer.alloc(0) },
  ]);
  await page.getByRole("button", { name: "Add 4 files" }).click();
  const results = page.getByRole("list", { name: "Add results" });
  await expect(results.getByRole("listitem")).toHaveCount(4);
  await expect(results).not.toContainText("Added");
  await expect(results.getByRole("listitem").nth(0)).toContainText(/^Refused notes\.txt: not an NZB \(line 1: /);
  await expect(results.getByRole("listitem").nth(1)).toContainText(/^Refused cover\.png: not an NZB \(/);
  await expect(results.getByRole("listitem").nth(2)).toContainText(/^Refused indexer-error\.nzb: not an NZB \(/);
  await expect(results.getByRole("listitem").nth(3)).toHaveText("Refused empty.nzb: The file is empty.");
  await page.screenshot({ path: `${shots}/queue-refused.png`, fullPage: true });

  expect(await jobs()).toEqual(before);
  expect(errors).toEqual([]);
});

test("history: a failure's reason, retry, search, filter, delete, browse", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await nav(page, "Queue");
  await upload(page, "Broken.Articles", withMissingArticles(videoNzb));
  // An NZB that never parses reaches History only through the SABnzbd API (Sonarr blocklists on the
  // failed entry); the UI's own upload refuses it at the door.
  const added = await page.request.post(`${server.url}/api?mode=addfile&nzbname=Broken.Xml&output=json&apikey=${demo.apiKey}`, {
    multipart: { name: { name: "broken.nzb", mimeType: "application/x-nzb", buffer: Buffer.from("<?xml version=\"1.0\"?><nzb><file subject=", "utf8") } },
  });
  expect(added.ok()).toBe(true);
  await upload(page, "Keep.Files", videoNzb);
  await upload(page, "Drop.Files", videoNzb);

  await nav(page, "History");
  const broken = historyItem(page, "Broken.Articles");
  await expect(broken.getByTestId("job-status")).toHaveText("Failed", { timeout: 30_000 });
  await expect(broken.getByTestId("fail-message")).toContainText("missing on every provider");
  const invalid = historyItem(page, "Broken.Xml");
  await expect(invalid.getByTestId("job-status")).toHaveText("Failed", { timeout: 30_000 });
  await expect(invalid.getByTestId("fail-message")).toContainText("Invalid NZB");
  // The whole reason is shown, wrapped, never cut.
  const reason = (await broken.getByTestId("fail-message").textContent())!;
  expect(reason.length).toBeGreaterThan(40);
  expect(await broken.getByTestId("fail-message").evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);

  // An NZB that can never parse is not offered a retry; the one whose articles were missing is.
  await expect(invalid.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(invalid.getByRole("link", { name: "Download NZB" })).toBeVisible();
  await expect(broken.getByRole("button", { name: "Retry" })).toBeVisible();

  // Retried while the queue is paused, the other one waits in the queue, then fails again.
  await nav(page, "Queue");
  await setQueuePaused(page, true);
  await nav(page, "History");
  await broken.getByRole("button", { name: "Retry" }).click();
  await expect(broken).toHaveCount(0);
  await nav(page, "Queue");
  await expect(queueItem(page, "Broken.Articles").getByTestId("job-status")).toHaveText("Queued");
  await setQueuePaused(page, false);
  await expect(queueItem(page, "Broken.Articles")).toHaveCount(0, { timeout: 30_000 });
  await nav(page, "History");
  await expect(broken.getByTestId("fail-message")).toContainText("missing on every provider", { timeout: 30_000 });

  // Search and the status filter narrow the list on the server.
  const list = page.getByRole("list", { name: "History" });
  await page.getByLabel("Search the history").fill("broken.");
  await expect(page.getByTestId("page-range")).toHaveText("1–2 of 2");
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.getByLabel("Status").selectOption("completed");
  await expect(page.getByText("No job matches.")).toBeVisible();
  await page.getByLabel("Search the history").fill("");
  await expect(list.getByTestId("job-status").filter({ hasText: "Failed" })).toHaveCount(0);
  await expect(list.getByTestId("job-status").filter({ hasText: "Completed" }).first()).toBeVisible();
  await page.getByLabel("Status").selectOption("failed");
  await expect(page.getByTestId("page-range")).toHaveText("1–2 of 2");
  await page.screenshot({ path: `${shots}/history-failed.png`, fullPage: true });

  // Removing the entry keeps nothing of it in the history.
  await page.getByLabel("Status").selectOption("all");
  await invalid.getByRole("button", { name: "Delete…" }).click();
  await invalid.getByRole("button", { name: "Remove entry (keep files)" }).click();
  await expect(invalid).toHaveCount(0);
  await page.getByLabel("Search the history").fill("Broken.Xml");
  await expect(page.getByText("No job matches.")).toBeVisible();
  await page.getByLabel("Search the history").fill("");

  // Removing an entry keeps its files in the library; deleting with files takes them too.
  for (const name of ["Keep.Files", "Drop.Files"]) await expect(historyItem(page, name).getByTestId("job-status")).toHaveText("Completed", { timeout: 30_000 });
  await historyItem(page, "Keep.Files").getByRole("button", { name: "Delete…" }).click();
  await historyItem(page, "Keep.Files").getByRole("button", { name: "Remove entry (keep files)" }).click();
  await historyItem(page, "Drop.Files").getByRole("button", { name: "Delete…" }).click();
  await historyItem(page, "Drop.Files").getByRole("button", { name: "Delete with files" }).click();
  await expect(historyItem(page, "Keep.Files")).toHaveCount(0);
  await expect(historyItem(page, "Drop.Files")).toHaveCount(0);
  await nav(page, "Files");
  await page.getByRole("link", { name: "default/" }).click();
  await expect(page.getByRole("link", { name: "Keep.Files/" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Drop.Files/" })).toHaveCount(0);
  await nav(page, "History");

  // A completed job links to its folder on the Files page.
  // The last of that name is the one the demo started with.
  await historyItem(page, "NzbDav.Demo.Video").last().getByRole("link", { name: "Browse files" }).click();
  await expect(page).toHaveURL(/\/ui\/files\?path=%2Fcontent%2Fdefault%2FNzbDav\.Demo\.Video/);
  await expect(page.getByRole("button", { name: "NzbDav.Demo.Video.mkv" })).toBeVisible();

  expect(errors).toEqual([]);
});

test.describe("files", () => {
  test.use({ permissions: ["clipboard-read", "clipboard-write"], acceptDownloads: true });

  test("browse to the demo video, download it byte for byte, copy its address, test and play it", async ({ page }) => {
    const errors = watchConsole(page);
    await logIn(page);
    await nav(page, "Files");
    await expect(page.getByRole("navigation", { name: "Folder path" })).toHaveText("content");
    await page.getByRole("link", { name: "default/" }).click();
    await page.getByRole("link", { name: "NzbDav.Demo.Video/", exact: true }).click();
    await expect(page.getByRole("navigation", { name: "Folder path" })).toHaveText("content/default/NzbDav.Demo.Video");
    // The file's name opens its actions: it says so (a disclosure, collapsed), and is not drawn as a link.
    const name = page.getByRole("button", { name: "NzbDav.Demo.Video.mkv" });
    await expect(name).toHaveAttribute("aria-expanded", "false");
    await expect(name).toHaveAttribute("title", /actions/);
    const color = (locator: Locator) => locator.evaluate((e) => getComputedStyle(e).color);
    expect(await color(name)).not.toBe(await color(page.getByRole("link", { name: ".. (up)" })));
    await name.click();
    await expect(name).toHaveAttribute("aria-expanded", "true");
    const panel = page.getByRole("region", { name: "NzbDav.Demo.Video.mkv actions" });

    // The download is the very file WebDAV serves.
    const [download] = await Promise.all([page.waitForEvent("download"), panel.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("NzbDav.Demo.Video.mkv");
    const downloaded = readFileSync(await download.path());
    const dav = await playwrightRequest.newContext({ httpCredentials: { username: demo.user, password: demo.password } });
    const viaWebDav = await dav.get(demo.webdav.replace(/\/$/, "") + videoPath);
    expect(viaWebDav.status()).toBe(200);
    const original = await viaWebDav.body();
    await dav.dispose();
    expect(downloaded.length).toBe(original.length);
    expect(downloaded.equals(original)).toBe(true);

    // The WebDAV address goes to the clipboard.
    await panel.getByRole("button", { name: "Copy WebDAV URL" }).click();
    await expect(panel.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(demo.webdav.replace(/\/$/, "") + videoPath);

    await panel.getByRole("button", { name: "Test" }).click();
    await expect(panel.getByTestId("test-result")).toHaveText(/^Read first byte [\d.]+ m?s, [\d.]+ [KMG]?B\/s over [\d.]+ [KMG]?B\.$/);

    // The browser plays it when it has the codec; otherwise the page says what the browser said.
    await panel.getByRole("button", { name: "Play" }).click();
    const video = panel.locator("video");
    await expect(video).toBeVisible();
    await expect
      .poll(async () => (await panel.getByTestId("media-error").count()) > 0 || (await video.evaluate((v: HTMLVideoElement) => v.readyState)) >= 1, { timeout: 15_000 })
      .toBe(true);
    const mediaError = await panel.getByTestId("media-error").count();
    if (mediaError > 0) console.log(`chromium cannot play the demo video: ${await panel.getByTestId("media-error").textContent()}`);
    else console.log(`the demo video plays: readyState ${await video.evaluate((v: HTMLVideoElement) => v.readyState)}, ${await video.evaluate((v: HTMLVideoElement) => v.duration)} s`);
    await page.screenshot({ path: `${shots}/files-playing.png`, fullPage: true });

    expect(errors).toEqual([]);
  });

  test("without the Clipboard API the address is shown selected, to copy by hand", async ({ page }) => {
    const errors = watchConsole(page);
    // What a browser does on a LAN address over plain http.
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined }));
    await logIn(page);
    await page.goto(`${demo.ui}files?path=${encodeURIComponent("/content/default/NzbDav.Demo.Video")}`);
    await page.getByRole("button", { name: "NzbDav.Demo.Video.mkv" }).click();
    await page.getByRole("button", { name: "Copy mount path" }).click();
    const box = page.getByRole("textbox", { name: /Copy mount path/ });
    await expect(box).toHaveValue(new RegExp(`${videoPath.replaceAll(".", "\\.")}$`));
    expect(await box.evaluate((input: HTMLInputElement) => input.selectionEnd! - input.selectionStart! === input.value.length)).toBe(true);
    expect(errors).toEqual([]);
  });
});

test("the three pages at desktop width, at 375 px and dark, with nothing overflowing", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await nav(page, "Queue");
  await setQueuePaused(page, true);
  await upload(page, "A.Rather.Long.Release.Name.That.Has.To.Wrap.2025.1080p.WEB-DL.DDP5.1.H.264-GROUP", videoNzb);

  const pages: { name: string; open: () => Promise<void> }[] = [
    { name: "queue", open: async () => nav(page, "Queue") },
    {
      name: "history",
      open: async () => {
        await nav(page, "History");
        await expect(page.getByTestId("page-range")).toBeVisible();
      },
    },
    {
      name: "files",
      open: async () => {
        await nav(page, "Files");
        await page.getByRole("link", { name: "default/" }).click();
        await page.getByRole("link", { name: "NzbDav.Demo.Video/", exact: true }).click();
        await page.getByRole("button", { name: "NzbDav.Demo.Video.mkv" }).click();
      },
    },
  ];
  const variants = [
    { suffix: "", width: 1280, dark: false },
    { suffix: "-375", width: 375, dark: false },
    { suffix: "-dark", width: 1280, dark: true },
  ];
  for (const variant of variants) {
    await page.emulateMedia({ colorScheme: variant.dark ? "dark" : "light" });
    await page.setViewportSize({ width: variant.width, height: 900 });
    for (const p of pages) {
      await p.open();
      await settled(page);
      await page.screenshot({ path: `${shots}/${p.name}${variant.suffix}.png`, fullPage: true });
      // At phone width nothing may push the page sideways; name what does, to fix it.
      const overflowing = await page.evaluate((width) => {
        const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest(".table-scroll, .h-scroll"));
        return wide.map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 10);
      }, variant.width);
      expect(overflowing, `${p.name}${variant.suffix} is wider than the screen`).toEqual([]);
    }
  }

  // Deleting asks first; cancelled, the job stays; confirmed, it goes.
  await nav(page, "Queue");
  const long = page.getByRole("list", { name: "Queue" }).getByRole("listitem");
  await long.getByRole("button", { name: "Delete" }).click();
  await long.getByRole("button", { name: "Cancel" }).click();
  await expect(long.getByRole("group", { name: "Confirm delete" })).toHaveCount(0);
  await long.getByRole("button", { name: "Delete" }).click();
  await long.getByRole("button", { name: "Delete job" }).click();
  await expect(page.getByText("The queue is empty.")).toBeVisible();
  await setQueuePaused(page, false);
  expect(errors).toEqual([]);
});

test("queue: a 1.5 MB upload shows how much has gone; sizes say what they count", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await nav(page, "Queue");
  await setQueuePaused(page, true);
  // An NZB of about 1.5 MB (the video's, padded with a comment), sent at 256 KB/s: about six seconds of upload.
  const padded = Buffer.from(videoNzb.toString("utf8").replace("<nzb", `<!-- ${"padding ".repeat(190_000)}-->\n<nzb`), "utf8");
  expect(padded.length).toBeGreaterThan(1_500_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 256 * 1024 });
  try {
    await page.getByLabel("NZB files").setInputFiles({ name: "Big.Upload.nzb", mimeType: "application/x-nzb", buffer: padded });
    await page.getByLabel("Name", { exact: true }).fill("Big.Upload");
    await page.getByRole("button", { name: "Add 1 file" }).click();
    const progress = page.getByTestId("upload-progress");
    await expect(progress).toContainText(/^Uploading ([1-9]\d?) % \(\d+(\.\d)? [KM]B of 1\.\d MB\)$/);
    await expect(progress.getByRole("progressbar", { name: "Upload" })).toBeVisible();
    await page.getByRole("region", { name: "Add NZBs" }).screenshot({ path: `${shots}/queue-upload-progress.png` });
    await expect(page.getByRole("list", { name: "Add results" })).toContainText("Added Big.Upload.nzb", { timeout: 30_000 });
    await expect(progress).toHaveCount(0);
  } finally {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  }

  // In the queue the size is the NZB's articles as posted; in History, the files (yEnc's few per cent less).
  const queued = queueItem(page, "Big.Upload").getByTestId("job-size");
  await expect(queued).toHaveText(/^\d+ KB on Usenet$/);
  await expect(queued).toHaveAttribute("title", /yEnc-encoded/);
  await setQueuePaused(page, false);
  await nav(page, "History");
  const done = historyItem(page, "Big.Upload");
  await expect(done.getByTestId("job-status")).toHaveText("Completed", { timeout: 30_000 });
  await expect(done.getByTestId("job-size")).toHaveText("304 KB of files");
  await expect(done.getByTestId("job-size")).toHaveAttribute("title", /larger \(yEnc/);
  expect(errors).toEqual([]);
});
