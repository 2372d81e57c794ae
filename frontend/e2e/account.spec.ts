import { expect, request as playwrightRequest, test } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { mkdirSync } from "node:fs";
import { startServer, listening, type RunningServer } from "./server";
import { watchConsole } from "./console";

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

let server: RunningServer;

test.beforeAll(async () => {
  server = await startServer([], listening);
});

test.afterAll(async () => {
  await server?.stop();
});

test("first run: the administrator is created with the logged setup code, then logs out and in", async ({ page }) => {
  const errors = watchConsole(page);
  const code = /setup code ([A-Z2-9]{5}-[A-Z2-9]{5})/.exec(server.output())?.[1];
  expect(code, "the server logs a setup code on a first start").toBeTruthy();

  // A browser at the root lands in the UI, on the setup page.
  await page.goto(server.url + "/");
  await expect(page).toHaveURL(/\/ui\/$/);
  await expect(page.getByRole("heading", { name: "Create the administrator" })).toBeVisible();
  await page.screenshot({ path: `${shots}/setup.png`, fullPage: true });

  // A wrong code is refused with the server's reason (the browser reports the 403 itself; expected).
  const beforeWrongCode = errors.length;
  await page.getByLabel("Setup code").fill("AAAAA-AAAAA");
  await page.getByLabel("Password", { exact: true }).fill("correct horse battery");
  await page.getByLabel("Password again").fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toContainText("setup code");
  expect(errors.slice(beforeWrongCode).every((e) => e.includes("status of 403"))).toBe(true);
  errors.splice(beforeWrongCode);

  // The form says what is wrong before sending.
  await page.getByLabel("Setup code").fill(code!.toLowerCase().replace("-", " "));
  await page.getByLabel("Password again").fill("correct horse battering");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert")).toHaveText("The two passwords differ.");

  await page.getByLabel("Password again").fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByTestId("live-state")).toHaveText("live");
  await expect(page.getByTestId("pool-streaming")).toBeVisible();
  await expect(page.getByText("No Usenet provider is configured.")).toBeVisible();
  await page.screenshot({ path: `${shots}/dashboard-no-provider.png`, fullPage: true });

  await page.getByRole("link", { name: "Status" }).click();
  await expect(page.getByTestId("health")).toHaveText("ok");
  await page.screenshot({ path: `${shots}/status.png`, fullPage: true });

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("heading", { name: "Log in to NzbDav" })).toBeVisible();
  await page.screenshot({ path: `${shots}/login.png`, fullPage: true });

  const beforeWrongLogin = errors.length;
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("alert")).toHaveText("Wrong user name or password.");
  // The browser reports the refused request (401) itself; that one is expected, nothing else.
  expect(errors.slice(beforeWrongLogin).every((e) => e.includes("status of 401"))).toBe(true);
  errors.splice(beforeWrongLogin);

  await page.getByLabel("Password").fill("correct horse battery");
  await page.getByRole("button", { name: "Log in" }).click();
  // Back on the page the session ended on.
  await expect(page.getByTestId("health")).toHaveText("ok");

  // The account page changes the password; the new one is the one that works afterwards.
  await page.getByRole("link", { name: "Account" }).click();
  await expect(page.getByRole("heading", { name: "Account" })).toBeVisible();
  await page.getByLabel("Current password").fill("correct horse battery");
  await page.getByLabel("New password", { exact: true }).fill("a brand new password");
  await page.getByLabel("New password again").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toHaveText("Password changed.");
  await page.screenshot({ path: `${shots}/account.png`, fullPage: true });

  // The Logs page shows the server's own lines and follows new ones without a reload.
  await page.getByRole("link", { name: "Logs" }).click();
  await expect(page.getByRole("heading", { name: "Logs" })).toBeVisible();
  await expect(page.getByRole("log")).toContainText("Generated the WebDAV password");
  await page.getByLabel("Search the log").fill("log-probe-from-the-browser-test");
  await expect(page.getByText("No line matches.")).toBeVisible();
  const probe = await page.request.get(server.url + "/log-probe-from-the-browser-test/");
  expect(probe.status()).toBe(401);
  await expect(page.getByRole("log")).toContainText("GET /log-probe-from-the-browser-test/ responded 401");
  await page.screenshot({ path: `${shots}/logs.png`, fullPage: true });

  // The start-up's warnings are pinned above the log, with the one date-time format of the UI.
  const pinned = page.getByTestId("startup-warnings");
  await expect(pinned).toContainText("Generated the WebDAV password");
  const stamp = pinned.locator("time").first();
  await expect(stamp).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(stamp).toHaveAttribute("title", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

  // The page's own polling (every 2 s, with the session checks) writes nothing at Information:
  // over the lines since the page opened, no GET of the UI's API.
  await page.getByLabel("Search the log").fill("GET /ui/api/");
  await expect(page.getByText("No line matches.")).toBeVisible();
  await page.getByLabel("Search the log").fill("");

  // The source filter keeps one component's lines.
  await page.getByLabel("Source").fill("WebDavCredentialInitializer");
  const lines = page.getByRole("log").locator(".log-line");
  await expect(lines.first()).toContainText("Generated the WebDAV password");
  await expect(lines.filter({ hasNotText: "WebDavCredentialInitializer" })).toHaveCount(0);
  await page.getByLabel("Source").fill("");

  // Dismissed, the warnings leave the top and stay in the log.
  await pinned.getByRole("button", { name: "Dismiss" }).click();
  await expect(pinned).toHaveCount(0);
  await expect(page.getByRole("log")).toContainText("Generated the WebDAV password");

  // Light and dark, wide and phone-sized.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 375, height: 720 });
  await page.getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByTestId("live-state")).toHaveText("live");
  await page.screenshot({ path: `${shots}/dashboard-dark-375.png`, fullPage: true });

  expect(errors).toEqual([]);
});

test("a logout in one tab takes every tab to the login within a second; after logging in, each is back on its page", async ({ browser }) => {
  const context = await browser.newContext();
  const tabA = await context.newPage();
  const tabB = await context.newPage();
  const errorsA = watchConsole(tabA);
  const errorsB = watchConsole(tabB);
  // The administrator as the first test left it.
  await tabA.goto(server.url + "/ui/status");
  await tabA.getByLabel("User name").fill("admin");
  await tabA.getByLabel("Password").fill("a brand new password");
  await tabA.getByRole("button", { name: "Log in" }).click();
  await expect(tabA.getByTestId("health")).toHaveText("ok");
  await tabB.goto(server.url + "/ui/logs");
  await expect(tabB.getByRole("heading", { name: "Logs" })).toBeVisible();

  // Tab A logs out; tab B, which polls its log, follows within a second and says why.
  await tabA.getByRole("button", { name: "Log out" }).click();
  await expect(tabA.getByRole("heading", { name: "Log in to NzbDav" })).toBeVisible();
  await expect(tabA.getByTestId("signed-out")).toHaveCount(0);
  await expect(tabB.getByRole("heading", { name: "Log in to NzbDav" })).toBeVisible({ timeout: 1_000 });
  await expect(tabB.getByTestId("signed-out")).toHaveText("You were signed out. Log in again to go back to this page.");
  await expect(tabB).toHaveURL(/\/ui\/logs$/);
  await expect(tabB.getByText(/401|Unauthorized/)).toHaveCount(0);
  await tabB.screenshot({ path: `${shots}/signed-out.png`, fullPage: true });

  // Nothing keeps polling into 401s on the login page.
  const polled: string[] = [];
  tabB.on("response", (r) => {
    if (r.status() === 401) polled.push(r.url());
  });
  await tabB.waitForTimeout(2_500);
  expect(polled).toEqual([]);

  // Logging in again in B returns it to the Logs page, and A follows the login.
  await tabB.getByLabel("User name").fill("admin");
  await tabB.getByLabel("Password").fill("a brand new password");
  await tabB.getByRole("button", { name: "Log in" }).click();
  await expect(tabB.getByRole("heading", { name: "Logs" })).toBeVisible();
  await expect(tabA.getByTestId("health")).toHaveText("ok", { timeout: 1_000 });

  // A session the server ends (here: every session, by a password change made elsewhere) shows the
  // login on the next call's 401, with the same words.
  const other = await playwrightRequest.newContext({ baseURL: server.url });
  const post = async (path: string, data: unknown, token: string) => {
    const response = await other.post(path, { data, headers: { "X-CSRF-Token": token } });
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  };
  const anonymous = ((await (await other.get("/ui/api/session")).json()) as { csrfToken: string }).csrfToken;
  let token = await post("/ui/api/login", { user: "admin", password: "a brand new password" }, anonymous);
  token = await post("/ui/api/account/password", { current: "a brand new password", new: "yet another password" }, token);
  await expect(tabB.getByTestId("signed-out")).toBeVisible({ timeout: 5_000 });
  await expect(tabB).toHaveURL(/\/ui\/logs$/);
  // The password as the next test expects it.
  await post("/ui/api/account/password", { current: "yet another password", new: "a brand new password" }, token);
  await other.dispose();

  // Only the expected refusals reached the consoles: the 401s that ended the sessions.
  for (const errors of [errorsA, errorsB]) expect(errors.every((e) => e.includes("status of 401"))).toBe(true);
  await context.close();
});

test("the first load stays within 250 KB of gzipped JavaScript", async ({ request }) => {
  const shell = await (await request.get(server.url + "/ui/")).text();
  const scripts = [...shell.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  let gzipped = 0;
  for (const src of scripts) {
    const body = await (await request.get(server.url + src)).body();
    gzipped += gzipSync(body, { level: 9 }).length;
  }
  console.log(`initial JavaScript: ${scripts.length} file(s), ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
  expect(gzipped).toBeLessThanOrEqual(250 * 1024);
});

test("the WebDAV account changed on the Settings page is the one WebDAV accepts from then on", async ({ page }) => {
  const errors = watchConsole(page);
  // The administrator as the first test left it.
  await page.goto(server.url + "/ui/settings");
  await page.getByLabel("User name").fill("admin");
  await page.getByLabel("Password").fill("a brand new password");
  await page.getByRole("button", { name: "Log in" }).click();
  const account = page.getByRole("form", { name: "WebDAV account" });
  const user = account.getByLabel("WebDAV user");
  // Nothing sets it outside the UI here: both can be changed.
  await expect(user).toBeEnabled();
  await expect(account.getByLabel("New WebDAV password", { exact: true })).toBeEnabled();
  const oldUser = await user.inputValue();

  // The form checks a new password before sending.
  await user.fill("mounter");
  await account.getByLabel("New WebDAV password", { exact: true }).fill("short");
  await account.getByLabel("New WebDAV password again").fill("short");
  await account.getByRole("button", { name: "Save account" }).click();
  await expect(account.getByRole("alert")).toHaveText("The WebDAV password must have at least 8 characters.");

  await account.getByLabel("New WebDAV password", { exact: true }).fill("rclone mount secret");
  await account.getByLabel("New WebDAV password again").fill("rclone mount secret");
  await account.getByRole("button", { name: "Save account" }).click();
  await expect(account.getByRole("status")).toContainText("Saved — in effect now");
  await expect(user).toHaveValue("mounter");
  await expect(account.getByLabel("New WebDAV password", { exact: true })).toHaveValue("");

  const propfind = async (username: string, password: string) => {
    const dav = await playwrightRequest.newContext({ httpCredentials: { username, password } });
    const status = (await dav.fetch(server.url + "/", { method: "PROPFIND", headers: { Depth: "0" } })).status();
    await dav.dispose();
    return status;
  };
  expect(await propfind("mounter", "rclone mount secret")).toBe(207);
  expect(await propfind("mounter", "not the secret")).toBe(401);
  expect(await propfind(oldUser, "rclone mount secret")).toBe(401);
  expect(errors).toEqual([]);
});
