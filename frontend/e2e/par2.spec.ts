import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountsAndMock, controlMockNntp, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { logIn as logInAs, nav } from "./pages";

// PAR2 repair from the Health page against the real server: the mock provider posts a 4 MiB file
// with the recovery data Debian's par2 made for it (slices of 128 KiB, 10 %), then loses one of its
// articles; once the hole is confirmed, the file's row offers "Repair with PAR2 (fetches …)" beside
// what Sonarr would do, and the repair makes it Healthy. Automatic repairs are off here so the
// button is what repairs.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "par2 repairs 1" };
const dav = { user: "rclone", password: "par2 dav pass 1" };
const apiKey = "fedcba9876543210fedcba9876543210";
const fileName = "Par2.Film.mkv";
const job = "Par2.Film";

let server: RunningServer;
let mock: RunningMockNntp;
let ui: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const release = mkdtempSync(path.join(tmpdir(), "nzbdav-e2e-par2-"));
  writeFileSync(path.join(release, fileName), randomBytes(4 * 1024 * 1024));
  execFileSync("par2", ["create", "-q", "-q", "-s131072", "-r10", "-n1", "Par2.Film.par2", fileName], { cwd: release });
  mock = await startMockNntp(["--size", "0", "--post", release, "--segment-size", "64", "--control"]);
  server = await startServer(
    [...accountsAndMock(account, dav, apiKey, mock.port), "--Health:ConfirmDelay=00:00:02", "--Health:MaxMissingPercent=5", "--Health:Par2Repair=false"],
    listening,
  );
  ui = `${server.url}/ui/`;
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), mock?.stop()]);
});

const logIn = (page: Page) => logInAs(page, { ui, ...account });

test("a confirmed hole is rebuilt from the release's PAR2 with the Health page's button", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  const response = await page.request.post(`${server.url}/api?mode=addfile&output=json&apikey=${apiKey}&nzbname=${job}`, {
    multipart: { name: { name: `${job}.nzb`, mimeType: "application/x-nzb", buffer: readFileSync(mock.nzb) } },
  });
  expect(await response.json()).toMatchObject({ status: true });
  await nav(page, "History");
  await expect(page.getByRole("list", { name: "History" }).getByRole("listitem", { name: job, exact: true }).getByTestId("job-status")).toHaveText("Completed", {
    timeout: 60_000,
  });

  // Article 10 of the film (the mock's first posted file) goes missing everywhere.
  expect(await controlMockNntp(mock.port, { file: 0, first: 10, last: 10, on: true })).toMatch(/^290 1 articles? changed/);
  await nav(page, "Health");
  const row = page.getByTestId("health-file").filter({ hasText: `/${job}/${fileName}` });
  await expect(async () => {
    await row.getByRole("button", { name: "Check now" }).click();
    await expect(row.getByTestId("health-action-message")).toContainText("State: Degraded.", { timeout: 5_000 });
  }).toPass({ timeout: 30_000, intervals: [1_000, 1_000, 2_000] });

  // The plan: one slice of 32 lost; the button says what the repair fetches (the other 31 slices and the recovery).
  const repair = row.getByRole("button", { name: /^Repair with PAR2 \(fetches [\d.]+ MB\)$/ });
  await expect(repair).toBeVisible();
  await expect(repair).toHaveAttribute("title", /^PAR2 can repair this: 1 lost slice\(s\) of 32 \(131\.1 kB each\), \d+ recovery slice\(s\) in the release; fetches /);
  await expect(row.getByRole("button", { name: "Replace through Sonarr" })).toHaveCount(0);
  await row.screenshot({ path: `${shots}/health-par2-offered.png` });

  // A slow provider, so the repair's progress can be seen: it runs in the background, the row shows how far it got.
  expect(await controlMockNntp(mock.port, { latencyMs: 600 })).toMatch(/^290 latency 600 ms/);
  await repair.click();
  await expect(row.getByTestId("health-action-message")).toContainText(/^PAR2 repair queued: PAR2 can repair this: 1 lost slice\(s\) of 32/);
  await expect(row.getByTestId("health-repair")).toHaveText("Repairing");
  const progress = row.getByTestId("health-par2-progress");
  await expect(progress).toContainText(/^Repairing with PAR2: \d+ % · [1-9][\d.]* [kKMG]?B of [\d.]+ [kKMG]?B/, { timeout: 15_000 });
  await expect(row.getByRole("button", { name: "Check now" })).toBeEnabled();
  await expect(row.getByRole("button", { name: /^Repair with PAR2/ })).toHaveCount(0);
  await row.screenshot({ path: `${shots}/health-par2-running.png` });
  expect(await controlMockNntp(mock.port, { latencyMs: 0 })).toMatch(/^290 latency 0 ms/);

  await expect(row.getByTestId("health-repair-message")).toContainText(/Repaired with PAR2: 1 segment\(s\) rebuilt from 1 recovery slice\(s\); fetched [\d.]+ [kMG]B of articles/, {
    timeout: 60_000,
  });
  await expect(row.getByTestId("health-state")).toHaveText("Healthy");
  await expect(progress).toHaveCount(0);
  await expect(row.getByTestId("health-action-message")).toHaveCount(0);
  await expect(row.getByRole("button", { name: /^Repair with PAR2/ })).toHaveCount(0);
  // The patched bytes: article 10 of 64 KiB segments is bytes 589,824–655,359.
  await expect(row.getByTestId("health-patches")).toContainText(/^Patched: 1 segment \(65\.5 KB\) rebuilt with PAR2 on [\d-]+ [\d:]+; bytes 589,824–655,359$/);
  await row.screenshot({ path: `${shots}/health-par2-repaired.png` });

  // The audit log says what was planned and done.
  const actions = page.getByTestId("audit-action");
  await expect(actions.filter({ hasText: "PAR2 plan" }).first()).toBeVisible();
  await expect(actions.filter({ hasText: "repaired with PAR2" }).first()).toBeVisible();
  expect(errors).toEqual([]);
});
