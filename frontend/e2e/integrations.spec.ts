import { expect, test, type Page } from "@playwright/test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServer, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { logIn as logInAs, nav, settled } from "./pages";

// Settings → Integrations against the real server in demo mode (its library holds the demo's
// completed jobs), with NzbDav:MountPath set on the Settings page to an empty folder where nothing
// is mounted; then a second server whose managed mount cannot start, for the failed state on the
// dashboard.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

let server: RunningServer;
let folder: string;
let mountPath: string;
let demo: { user: string; password: string; apiKey: string; ui: string };

test.describe.configure({ mode: "serial" });
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeAll(async () => {
  folder = mkdtempSync(path.join(tmpdir(), "nzbdav-e2e-mount-"));
  mountPath = path.join(folder, "mnt");
  mkdirSync(mountPath);
  server = await startServer(["--demo"], /NZBDAV-DEMO url=(http:\/\/\S+) /);
  const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output());
  if (!line) throw new Error(`no demo line in:\n${server.output()}`);
  demo = { user: line[2]!, password: line[3]!, apiKey: line[4]!, ui: line[5]! };
});

test.afterAll(async () => {
  await server?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const logIn = (page: Page) => logInAs(page, demo);

/** Sets NzbDav:MountPath on the Settings page, as a user would. */
async function setMountPath(page: Page, value: string) {
  await nav(page, "Settings");
  const mount = page.getByRole("form", { name: "Mount settings" });
  await mount.getByLabel("Mount path", { exact: true }).fill(value);
  await mount.getByRole("button", { name: "Save" }).click();
  await expect(mount.getByRole("status")).toHaveText("Saved — in effect now");
}

async function openIntegrations(page: Page) {
  await nav(page, "Settings");
  await page.getByRole("link", { name: "Integrations", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Integrations", exact: true })).toBeVisible();
  await expect(page.getByTestId("sab-host")).toBeVisible();
}

test("the values name this server: its API key, host and port, categories, completed folders; Copy puts them on the clipboard", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await setMountPath(page, mountPath);
  await openIntegrations(page);
  const origin = new URL(server.url);

  const sab = page.getByTestId("sab");
  await expect(sab.getByTestId("sab-host")).toHaveText(origin.hostname);
  await expect(sab.getByTestId("sab-port")).toHaveText(origin.port);
  await expect(sab.getByTestId("sab-ssl")).toHaveText("off");
  await expect(sab.getByTestId("sab-url-base")).toHaveText("empty");
  // The key is hidden until asked for, and is the one the SABnzbd API takes.
  const key = sab.getByTestId("sab-api-key");
  await expect(key).toHaveText(/^•{32}$/);
  await sab.getByRole("button", { name: "Show" }).click();
  await expect(key).toHaveText(demo.apiKey);
  const queue = await page.request.get(`${server.url}/api?mode=queue&output=json&apikey=${await key.textContent()}`);
  expect(await queue.json()).toHaveProperty("queue");
  await sab.getByRole("button", { name: "Copy API key" }).click();
  await expect(sab.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(demo.apiKey);

  for (const category of ["tv", "movies"]) await expect(sab.getByTestId(`completed-${category}`)).toHaveText(`${mountPath}/completed/${category}`);
  await expect(sab.getByTestId("mapping-remote-path")).toHaveText(`${mountPath}/completed/`);
  await expect(sab.getByTestId("remote-path-note")).toContainText(`Needed only when Sonarr/Radarr see the mount at another path than ${mountPath}.`);

  // The rclone remote with this server's URL and WebDAV user; the password is for the user to fill in.
  const remote = `rclone config create nzbdav webdav url=${server.url}/ vendor=other user=${demo.user} pass="$(rclone obscure '<your WebDAV password>')" --no-obscure`;
  const rclone = page.getByTestId("rclone");
  await expect(rclone.getByTestId("rclone-config")).toHaveText(remote);
  await expect(rclone.getByTestId("rclone-config").locator("mark")).toHaveText("<your WebDAV password>");
  await rclone.getByRole("button", { name: "Copy remote" }).click();
  await expect(rclone.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(remote);
  await expect(rclone.getByTestId("rclone-mount")).toContainText(`rclone mount nzbdav: ${mountPath} \\`);
  await expect(rclone.getByTestId("rclone-mount")).toContainText("--vfs-cache-mode full");

  // A code block is copied with its lines.
  const compose = page.getByTestId("compose");
  await compose.getByRole("button", { name: "Copy nzbdav with its managed mount" }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`      NzbDav__MountPath: ${mountPath}\n`);
  expect(copied).toContain(`      - ${mountPath}:${mountPath}:rshared\n`);
  expect(copied).toBe(await compose.getByTestId("compose-managed").textContent());

  const media = page.getByTestId("media");
  await expect(media.getByTestId("media-volume")).toHaveText(`${mountPath}:${mountPath}:rslave`);
  await expect(media.getByTestId("media-note")).toContainText("Point the Plex/Jellyfin libraries at Sonarr's and Radarr's root folders");
  expect(errors).toEqual([]);
});

test("without the Clipboard API a code block is shown selected in a box, every line of it", async ({ page }) => {
  const errors = watchConsole(page);
  // What a browser does on a LAN address over plain http.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined }));
  await logIn(page);
  await openIntegrations(page);
  await page.getByRole("button", { name: "Copy mount", exact: true }).click();
  const box = page.getByRole("textbox", { name: "Copy mount: copy this text" });
  await expect(box).toHaveValue(await page.getByTestId("rclone-mount").textContent() ?? "");
  expect(await box.evaluate((area: HTMLTextAreaElement) => area.value.split("\n").length)).toBeGreaterThan(4);
  expect(await box.evaluate((area: HTMLTextAreaElement) => area.selectionEnd - area.selectionStart === area.value.length)).toBe(true);
  expect(errors).toEqual([]);
});

test("Check the mount with nothing mounted: each failing check says why, and there is no error page", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openIntegrations(page);
  const card = page.getByTestId("mount");
  await expect(card.getByTestId("mount-state")).toHaveText("off");

  await card.getByRole("button", { name: "Check the mount" }).click();
  const result = card.getByTestId("mount-check");
  await expect(result.getByRole("status")).toHaveText("1 of 2 checks failed: Mounted.");
  const items = result.getByRole("list", { name: "Mount checks" }).getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("✓ Mount path passed");
  await expect(items.nth(0)).toContainText(`${mountPath} exists where NzbDav runs.`);
  await expect(items.nth(1)).toContainText(`✗ Mounted failed`);
  await expect(items.nth(1)).toContainText(`Nothing is mounted at ${mountPath}: it is an empty folder, not a mount point.`);
  await expect(page.getByRole("alert")).toHaveCount(0);
  for (const variant of [
    { suffix: "", width: 1280, dark: false },
    { suffix: "-375", width: 375, dark: false },
    { suffix: "-dark", width: 1280, dark: true },
  ]) {
    await page.emulateMedia({ colorScheme: variant.dark ? "dark" : "light" });
    await page.setViewportSize({ width: variant.width, height: 900 });
    await expect(result).toBeVisible();
    await settled(page);
    await page.screenshot({ path: `${shots}/integrations${variant.suffix}.png`, fullPage: true });
    const overflowing = await page.evaluate((width) => {
      const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest(".table-scroll, .h-scroll"));
      return wide.map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 10);
    }, variant.width);
    expect(overflowing, `integrations${variant.suffix} is wider than the screen`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The mount path moved to a folder that does not exist here: perhaps NzbDav runs elsewhere than the mount.
  const elsewhere = path.join(folder, "elsewhere");
  await setMountPath(page, elsewhere);
  await page.getByRole("link", { name: "Integrations", exact: true }).click();
  await expect(page.getByTestId("media-mount-path")).toHaveText(elsewhere);
  await page.getByRole("button", { name: "Check the mount" }).click();
  await expect(result.getByRole("status")).toHaveText("1 of 1 check failed: Mount path.");
  await expect(result.getByRole("listitem")).toContainText(
    `${elsewhere} does not exist where NzbDav runs. If NzbDav runs in another container or on another machine than the mount, this check cannot see the mount, which is not necessarily a problem`,
  );
  await expect(page.getByRole("alert")).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("the dashboard shows the mount: off, with the way to Integrations", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await expect(page.getByTestId("live-state")).toHaveText("live");
  const card = page.getByRole("region", { name: "Mount" });
  await expect(card.getByTestId("mount-state")).toHaveText("off");
  await expect(card.getByTestId("mount-headline")).toContainText("NzbDav's managed mount is off (Mount:Enabled is false)");
  await card.getByRole("link", { name: "Settings → Integrations" }).click();
  await expect(page.getByRole("heading", { name: "Integrations", exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test.describe("a managed mount that cannot start", () => {
  let failing: RunningServer;
  let account: { user: string; password: string; ui: string };

  test.beforeAll(async () => {
    failing = await startServer(
      ["--demo", "--Mount:Enabled=true", "--Mount:Rclone=/nonexistent/rclone", `--NzbDav:MountPath=${path.join(folder, "managed")}`],
      /NZBDAV-DEMO url=(http:\/\/\S+) /,
    );
    const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(failing.output());
    if (!line) throw new Error(`no demo line in:\n${failing.output()}`);
    account = { user: line[2]!, password: line[3]!, ui: line[5]! };
  });

  test.afterAll(async () => {
    await failing?.stop();
  });

  test("the dashboard and Integrations show it failed, why, and how often it was tried", async ({ page }) => {
    const errors = watchConsole(page);
    await logInAs(page, account);
    await expect(page.getByTestId("live-state")).toHaveText("live");
    const card = page.getByRole("region", { name: "Mount" });
    await expect(card.getByTestId("mount-state")).toHaveText("failed");
    await expect(card.getByTestId("mount-headline")).toContainText(`Not mounted at ${path.join(folder, "managed")}: the last attempt failed`);
    await expect(card.getByTestId("mount-last-error")).toContainText("rclone was not found (Mount:Rclone is '/nonexistent/rclone')");
    await expect(card.getByTestId("mount-restarts")).toHaveText(/^[1-9]\d*$/);
    await expect(card.getByTestId("mount-cache")).toHaveText("–");
    await card.screenshot({ path: `${shots}/integrations-dashboard-mount.png` });

    await openIntegrations(page);
    const mount = page.getByTestId("mount");
    await expect(mount.getByTestId("mount-state")).toHaveText("failed");
    await expect(mount.getByTestId("mount-last-error")).toContainText("rclone was not found");
    expect(errors).toEqual([]);
  });
});

test("Settings → Mount: switched on, the real rclone mounts the library and the dashboard shows it within 2 s; switched off, it unmounts", async ({ page }) => {
  test.skip(!existsSync("/dev/fuse"), "FUSE is not available on this machine");
  const errors = watchConsole(page);
  const managed = path.join(folder, "managed-from-settings");
  mkdirSync(managed);
  await logIn(page);
  await nav(page, "Settings");
  const form = page.getByRole("form", { name: "Mount settings" });
  const card = page.getByRole("region", { name: "Mount", exact: true });
  // The switch, the path and the main flags, with the state beside them.
  await expect(card.getByTestId("mount-state")).toHaveText("off");
  await expect(form.getByLabel("VFS cache mode", { exact: true })).toHaveValue("full");
  await expect(form.getByLabel("Directory cache time", { exact: true })).toHaveValue("30s");
  await form.getByLabel("VFS cache size", { exact: true }).fill("lots");
  await form.getByRole("button", { name: "Save" }).click();
  // Refused under the field before anything is sent.
  await expect(form.locator(".field-error")).toHaveText("VFS cache size must be a size in rclone's units, e.g. 20G, 512M or off; 'lots' is not.");
  await expect(form.getByRole("alert").last()).toHaveText("Nothing was saved: correct the field marked above.");
  await form.getByLabel("VFS cache size", { exact: true }).fill("1G");
  await form.getByLabel("Mount path", { exact: true }).fill(managed);
  await form.getByLabel("Managed rclone mount", { exact: true }).check();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved — in effect now");
  await expect(card.getByTestId("mount-state")).toHaveText("mounted", { timeout: 30_000 });
  await card.screenshot({ path: `${shots}/settings-mount-on.png` });

  // The dashboard says so within 2 s, and the library is there through the mount.
  await nav(page, "Dashboard");
  const dashboard = page.getByRole("region", { name: "Mount" });
  await expect(dashboard.getByTestId("mount-state")).toHaveText("mounted", { timeout: 2_000 });
  expect(readdirSync(managed)).toEqual(expect.arrayContaining(["content", "completed"]));
  const video = path.join(managed, "content", "default", "NzbDav.Demo.Video", "NzbDav.Demo.Video.mkv");
  expect(readFileSync(video).subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));

  // Off again: unmounted, shown on both pages, the folder empty as it was.
  await nav(page, "Settings");
  await form.getByLabel("Managed rclone mount", { exact: true }).uncheck();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("status")).toHaveText("Saved — in effect now");
  await expect(card.getByTestId("mount-state")).toHaveText("off", { timeout: 30_000 });
  await nav(page, "Dashboard");
  await expect(dashboard.getByTestId("mount-state")).toHaveText("off", { timeout: 2_000 });
  expect(readdirSync(managed)).toEqual([]);
  expect(errors).toEqual([]);
});
