import { expect, test, type Page } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import { accountsAndMock, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { playPaced } from "./player";
import { addJobAndWait, logIn as logInAs, settled } from "./pages";

// The dashboard's provider economy while files play: the real server, whose one provider is a mock
// Usenet server of its own (40 MiB in 160 articles); players read the file over WebDAV at about 2 MB/s.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "economy dashboard 1" };
const dav = { user: "player", password: "webdav player 1" };
const apiKey = "fedcba9876543210fedcba9876543210";
const job = "Economy.Sample";
const fileName = "mock-40MB.bin";
const filePath = `/content/tv/${job}/${fileName}`;

let server: RunningServer;
let mock: RunningMockNntp;
let ui: string;

test.beforeAll(async () => {
  mock = await startMockNntp(["--size", "40", "--segment-size", "256", "--latency", "5"]);
  server = await startServer(
    [
      ...accountsAndMock(account, dav, apiKey, mock.port),
      "--Usenet:BreakerFailureThreshold=1",
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

/** A player reading the file over WebDAV at about `bytesPerSecond` (the body is paced, so the stream stays open). */
const play = (bytesPerSecond: number, range?: string) => playPaced(`${server.url}${filePath}`, authorization, bytesPerSecond, range);

/** One small ranged GET read to its end: the bytes a probe reads. */
async function probe(page: Page, range: string) {
  const response = await page.request.get(`${server.url}${filePath}`, { headers: { Authorization: authorization, Range: range } });
  expect(response.status()).toBe(206);
  await response.body();
}

test("while files play, the streams table shows what each fetched and the Provider economy card the totals", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);

  // The mock's NZB added as a job through the SABnzbd API, as Sonarr would, then played.
  await addJobAndWait(page, server.url, apiKey, job, readFileSync(mock.nzb));

  await expect(page.getByTestId("live-state")).toHaveText("live");
  const economy = page.getByRole("region", { name: "Provider economy" });
  await expect(economy).toBeVisible();

  // Two players of the same file, the second a little later, and a probe of its start.
  const first = play(2_000_000);
  await expect.poll(first.received, { timeout: 15_000 }).toBeGreaterThan(1_000_000);
  const second = play(1_000_000, "bytes=0-");
  try {
    await probe(page, "bytes=0-65535");

    const streams = page.getByRole("region", { name: "Streams" });
    for (const [column, title] of [
      ["Fetched", /providers/],
      ["From cache", /segment cache/],
      ["Fetched ÷ served", /per byte sent/],
    ] as const) {
      await expect(streams.getByRole("columnheader", { name: column, exact: true })).toHaveAttribute("title", title);
    }
    const rows = streams.getByRole("row").filter({ hasText: fileName });
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      await expect(row.getByTestId("stream-fetched")).toHaveText(/^\d+(\.\d)? [KMG]?B$/);
      await expect(row.getByTestId("stream-shared")).toHaveText(/^\d+(\.\d)? [KMG]?B$/);
      await expect(row.getByTestId("stream-ratio")).toHaveText(/^\d+\.\d\d$/);
    }
    // The second player took the first segments from the cache instead of fetching them.
    await expect(rows.getByTestId("stream-shared").filter({ hasNotText: /^0 B$/ })).not.toHaveCount(0);

    await expect(economy.getByTestId("economy-served")).toHaveText(/^\d+(\.\d)? [KMG]B$/);
    await expect(economy.getByTestId("economy-fetched")).toHaveText(/^\d+(\.\d)? [KMG]B$/);
    await expect(economy.getByTestId("economy-ratio")).toHaveText(/^\d+\.\d\d$/);
    await expect(economy.getByTestId("economy-cache")).not.toHaveText("0 B");
    await expect(economy).toContainText(/\d+ % hits \([1-9][\d,]* hits?, [\d,]+ misses\)/);
    await expect(economy.getByTestId("economy-shared")).toHaveText(/^\d+$/);
    await expect(economy.getByTestId("economy-read-ahead")).toHaveText(/^[1-9][\d.]* [KMG]?B of [\d.]+ [KMG]?B$/);
    await expect(economy).toContainText(/in use by [12] streams?/);

    await settled(page);
    await page.screenshot({ path: `${shots}/dashboard-economy.png`, fullPage: true });
    // At phone width the figures stack and only the streams table scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(economy.getByTestId("economy-read-ahead")).toBeVisible();
    const economyBox = (await economy.boundingBox())!;
    expect(economyBox.x + economyBox.width).toBeLessThanOrEqual(375);
    await page.screenshot({ path: `${shots}/dashboard-economy-375.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 720 });
  } finally {
    first.stop();
    second.stop();
  }

  // Once the players stop, the streams go; the totals stay.
  await expect(page.getByRole("region", { name: "Streams" })).toContainText("Nothing is being served right now.");
  await expect(economy.getByTestId("economy-ratio")).toHaveText(/^\d+\.\d\d$/);
  expect(errors).toEqual([]);
});

test("the chart breaks its lines over a time the page got no samples, instead of drawing across it", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await expect(page.getByTestId("live-state")).toHaveText("live");
  const chart = page.getByTestId("rate-chart");
  await expect(chart).toHaveAttribute("data-points", /^([3-9]|\d\d+)$/);
  // (The first point can be the feed's last frame from before this page listened: a gap after it is right.)
  const before = Number(await chart.getAttribute("data-gaps"));
  // The machine loses its network for a few seconds (a laptop asleep would do the same): the feed drops.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  // Going offline does not end a connection already open: stop it as a dropped network would.
  await page.evaluate(() => window.stop());
  await expect(page.getByTestId("live-state")).toHaveText("reconnecting");
  // Some seconds without samples: the time a gap is made of.
  await new Promise((resolve) => setTimeout(resolve, 4_500));
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(page.getByTestId("live-state")).toHaveText("live", { timeout: 20_000 });
  await expect(chart).toHaveAttribute("data-gaps", String(before + 1));
  // The page kept what it showed through the blink; the line saying the server did not answer is gone.
  await expect(page.getByTestId("server-unreachable")).toHaveCount(0);
  expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(e))).toEqual([]);
});

test("a provider that goes away is shown down, with its last error in plain words and since when", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await expect(page.getByTestId("live-state")).toHaveText("live");
  const row = page.getByTestId("provider-mock");
  await expect(row.getByTestId("provider-state")).toHaveText("ok");

  // The provider's server stops: nothing accepts connections on its port any more. (Every byte of
  // the played file is in the segment cache by now, so a new job is what needs the provider.)
  const port = mock.port;
  const nzb = readFileSync(mock.nzb);
  await mock.stop();
  const added = await page.request.post(`${server.url}/api?mode=addfile&output=json&apikey=${apiKey}&nzbname=Economy.Again&cat=tv`, {
    multipart: { name: { name: "Economy.Again.nzb", mimeType: "application/x-nzb", buffer: nzb } },
  });
  expect(added.status()).toBe(200);
  await expect
    .poll(() => row.getByTestId("provider-state").textContent(), { timeout: 45_000 })
    .toBe("down");

  const detail = page.getByTestId("provider-mock-detail");
  await expect(detail).toContainText(/^Down for (a moment|\d+ s); not used until the next try in (\d+ s|a moment)\./);
  // An idle session the server ended, or a new connection refused: either way, where and what to do.
  const where = `127\\.0\\.0\\.1:${port}`;
  await expect(detail.getByTestId("provider-error")).toHaveText(
    new RegExp(
      `^(${where} closed the connection: the server went away or ended the session; if it lasts, check the provider's status page and your account\\.` +
        `|nothing accepts connections on ${where}: check the host and port \\(119 without TLS, 563 with TLS\\)\\.)$`,
    ),
  );
  // The errors column counts the failed connections too: a provider that is down never shows 0 errors.
  await expect(row.getByRole("cell").last()).not.toHaveText(/ \/ 0$/);
  await settled(page);
  await page.getByRole("region", { name: "Providers" }).screenshot({ path: `${shots}/dashboard-provider-down.png` });
  expect(errors).toEqual([]);
});
