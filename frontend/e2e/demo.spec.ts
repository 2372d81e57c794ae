import { expect, request as playwrightRequest, test } from "@playwright/test";
import { startServer, type RunningServer } from "./server";
import { watchConsole } from "./console";

let server: RunningServer;
let line: RegExpExecArray;

test.beforeAll(async () => {
  server = await startServer(["--demo"], /NZBDAV-DEMO url=(http:\/\/\S+) /);
  line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output())!;
});

test.afterAll(async () => {
  await server?.stop();
});

test("demo mode: the printed ui= address and the demo credentials log in to the UI", async ({ page }) => {
  const errors = watchConsole(page);
  expect(line, "the demo prints its line with ui= last").toBeTruthy();
  const [, , user, password, , ui] = line;

  await page.goto(ui!);
  await expect(page.getByRole("heading", { name: "Log in to NzbDav" })).toBeVisible();
  await page.getByLabel("User name").fill(user!);
  await page.getByLabel("Password").fill(password!);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText(user!, { exact: true })).toBeVisible();

  // The dashboard is live and shows the demo's provider and the connection budget.
  await expect(page.getByTestId("live-state")).toHaveText("live");
  await expect(page.getByTestId("provider-demo-mock")).toBeVisible();
  for (const pool of ["streaming", "queue", "health check"]) await expect(page.getByTestId(`pool-${pool}`)).toBeVisible();

  // A player reads a file over WebDAV: the dashboard's served total follows without a reload.
  const servedTile = page.getByTestId("served").locator("xpath=..");
  await expect(servedTile).toContainText("0 B to players in all");
  const dav = await playwrightRequest.newContext({ httpCredentials: { username: user!, password: password! } });
  const video = await dav.get(`${line[1]}content/default/NzbDav.Demo.Video/NzbDav.Demo.Video.mkv`);
  expect(video.status()).toBe(200);
  const size = (await video.body()).length;
  expect(size).toBeGreaterThan(100_000);
  // The whole file, about 304 KB, served once (and nothing else).
  await expect(servedTile).toContainText(`${(size / 1000).toFixed(0)} KB to players in all`);
  await dav.dispose();
  await page.screenshot({ path: "e2e-results/screenshots/dashboard-demo.png", fullPage: true });
  expect(errors).toEqual([]);
});
