import { expect, test, type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountsAndMock, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { addJobAndWait, logIn as logInAs, settled } from "./pages";

// The dashboard's Disk cache card on the real server over a mock provider: what a played file left
// on disk, the bytes a second read took from there, and a cache folder that goes bad and comes back.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "disk cache dashboard 1" };
const dav = { user: "player", password: "webdav player 1" };
const apiKey = "0123456789abcdef0123456789abcdef";
const job = "Disk.Cache.Sample";
const fileName = "mock-12MB.bin";
const filePath = `/content/tv/${job}/${fileName}`;

let server: RunningServer;
let mock: RunningMockNntp;
let ui: string;
let cache: string;

test.beforeAll(async () => {
  mock = await startMockNntp(["--size", "12", "--segment-size", "256", "--latency", "2"]);
  // A temporary folder of its own (the server's data directory is only known once it runs), removed after.
  cache = path.join(mkdtempSync(path.join(tmpdir(), "nzbdav-e2e-cache-")), "segments");
  server = await startServer(
    [
      ...accountsAndMock(account, dav, apiKey, mock.port),
      // No memory cache: a second read has to come from the disk.
      "--Streaming:SegmentCacheBytes=0",
      `--Cache:Path=${cache}`,
      "--Cache:MaxBytes=268435456",
      "--Cache:RetrySeconds=2",
      // Every played segment written (the test reads far faster than a player).
      "--Cache:PlaybackWriteBytesPerSecond=0",
    ],
    listening,
  );
  ui = `${server.url}/ui/`;
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), mock?.stop()]);
  rmSync(path.dirname(cache), { recursive: true, force: true });
});

const logIn = (page: Page) => logInAs(page, { ui, ...account });
const authorization = `Basic ${Buffer.from(`${dav.user}:${dav.password}`).toString("base64")}`;

async function readWhole(page: Page) {
  const response = await page.request.get(`${server.url}${filePath}`, { headers: { Authorization: authorization } });
  expect(response.status()).toBe(200);
  expect((await response.body()).length).toBe(12 * 1024 * 1024);
}

test("the Disk cache card shows what is on disk, the bytes it saved, and a folder that goes bad and recovers", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await addJobAndWait(page, server.url, apiKey, job, readFileSync(mock.nzb));

  const card = page.getByRole("region", { name: "Disk cache" });
  await expect(card).toBeVisible();
  await expect(card).toContainText(cache);

  // Played once: on disk. Played again: from the disk, not the provider.
  await readWhole(page);
  await expect(card.getByTestId("disk-cache-size")).toHaveText(/^1[23](\.\d)? MB of 268 MB$/);
  await readWhole(page);
  await expect(card.getByTestId("disk-cache-saved")).toHaveText(/^1[23](\.\d)? MB$/);
  await expect(card.getByTestId("disk-cache-hits")).toHaveText(/^[1-9]\d* %$/);
  await expect(card).toContainText(/[1-9][\d,]* hits?, [\d,]+ misse?s?/);
  await expect(card.getByTestId("disk-cache-degraded")).toHaveCount(0);
  await settled(page);
  await page.screenshot({ path: `${shots}/dashboard-disk-cache.png`, fullPage: true });

  // The folder is taken away and a file put in its place: writes fail, reads go on from the provider.
  rmSync(cache, { recursive: true, force: true });
  writeFileSync(cache, "not a folder");
  const health = async () => ((await (await page.request.get(`${server.url}/health`)).json()) as { status: string }).status;
  await readWhole(page);
  await expect(card.getByTestId("disk-cache-degraded")).toContainText(/^Not writing: writing to .* failed/);
  expect(await health()).toBe("degraded");
  await settled(page);
  await card.screenshot({ path: `${shots}/dashboard-disk-cache-degraded.png` });

  // The disk is back: the next write after the retry interval works and the warning goes.
  rmSync(cache, { force: true });
  await expect
    .poll(
      async () => {
        await readWhole(page);
        return card.getByTestId("disk-cache-degraded").count();
      },
      { timeout: 20_000 },
    )
    .toBe(0);
  expect(await health()).toBe("ok");
  expect(errors).toEqual([]);
});
