import { expect, test, type Page } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import { accountsAndMock, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { addJobAndWait, logIn as logInAs, nav, settled } from "./pages";

// The Traffic page on the real server over a mock provider: a player and a prober read the same
// file; the page names them, the queue and the sessions, the provider and the file.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "traffic page 1" };
const dav = { user: "player", password: "webdav player 1" };
const apiKey = "89abcdef0123456789abcdef01234567";
const job = "Traffic.Sample";
const fileName = "mock-40MB.bin";
const filePath = `/content/tv/${job}/${fileName}`;

let server: RunningServer;
let mock: RunningMockNntp;
let ui: string;

test.beforeAll(async () => {
  mock = await startMockNntp(["--size", "40", "--segment-size", "512", "--latency", "2"]);
  server = await startServer(
    [
      ...accountsAndMock(account, dav, apiKey, mock.port),
    ],
    listening,
  );
  ui = `${server.url}/ui/`;
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), mock?.stop()]);
});

const logIn = (page: Page) => logInAs(page, { ui, ...account });
const authorization = `Basic ${Buffer.from(`${dav.user}:${dav.password}`).toString("base64")}`;

async function read(page: Page, userAgent: string, range?: string) {
  const response = await page.request.get(`${server.url}${filePath}`, {
    headers: { Authorization: authorization, "User-Agent": userAgent, ...(range ? { Range: range } : {}) },
  });
  expect(response.status()).toBe(range ? 206 : 200);
  await response.body();
}

test("the Traffic page says who made the provider send what, per provider and per file", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await addJobAndWait(page, server.url, apiKey, job, readFileSync(mock.nzb));

  await read(page, "PlexMediaServer/1.41.3.9314");
  await read(page, "Lavf/61.7.100", "bytes=0-65535");
  await read(page, "Lavf/61.7.100", "bytes=-65536");

  await nav(page, "Traffic");
  await expect(page.getByRole("heading", { name: "Traffic", level: 1 })).toBeVisible();
  const consumers = page.getByTestId("traffic-consumer");
  const row = (name: string) => consumers.filter({ has: page.getByRole("cell", { name, exact: true }) });
  await expect(row("Plex Media Server (player) · playback")).toHaveCount(1);
  await expect(row("Plex Media Server (player) · playback").getByTestId("traffic-served")).toHaveText("41.9 MB");
  await expect(row("ffmpeg/ffprobe (player) · probe").getByTestId("traffic-served")).toHaveText("131 KB");
  await expect(row("queue")).toHaveCount(1);
  await expect(row("sessions")).toHaveCount(1);
  await expect(page.getByTestId("traffic-provider").filter({ hasText: "mock" })).toContainText("100 %");
  await expect(page.getByTestId("traffic-file").filter({ hasText: fileName })).toContainText("3");
  await expect(page.getByTestId("traffic-bars-consumer").locator("rect[data-series='Plex Media Server (player) · playback']")).toHaveCount(1);
  await expect(page.getByTestId("traffic-bars-provider").locator("rect[data-series='mock']")).toHaveCount(1);
  await settled(page);
  await page.screenshot({ path: `${shots}/traffic.png`, fullPage: true });

  await page.getByRole("button", { name: "Last 30 days" }).click();
  await expect(page.getByRole("button", { name: "Last 30 days" })).toHaveAttribute("aria-pressed", "true");
  await expect(row("Plex Media Server (player) · playback")).toHaveCount(1);
  expect(errors).toEqual([]);
});
