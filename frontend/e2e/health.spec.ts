import { expect, test, type Locator, type Page } from "@playwright/test";
import { createServer } from "node:net";
import { mkdirSync, readFileSync } from "node:fs";
import { controlMockNntp, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { expectOnlyRefusals, watchConsole } from "./console";
import { logIn as logInAs, nav } from "./pages";

// The Health page and the Sonarr/Radarr settings against the real server, whose one provider is a
// mock Usenet server of its own (20 MiB in 80 articles) that makes articles disappear on command.
// A hole is confirmed only by a check at least Health:ConfirmDelay after the first sighting (2 s
// here); up to 5 % of the bytes in runs of at most 3 segments is tolerated (Degraded), beyond is Broken.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "health checks 1" };
const apiKey = "0123456789abcdef0123456789abcdef";
const fileName = "mock-20MB.bin";
const sample = "Health.Sample";
const spare = "Health.Spare";

let server: RunningServer;
let mock: RunningMockNntp;
let ui: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  mock = await startMockNntp(["--size", "20", "--segment-size", "256", "--control"]);
  server = await startServer(
    [
      `--NzbDav:Ui:AdminUser=${account.user}`,
      `--NzbDav:Ui:AdminPassword=${account.password}`,
      `--NzbDav:ApiKey=${apiKey}`,
      "--Usenet:Providers:0:Name=mock",
      "--Usenet:Providers:0:Host=127.0.0.1",
      `--Usenet:Providers:0:Port=${mock.port}`,
      "--Usenet:Providers:0:UseTls=false",
      "--Usenet:Providers:0:MaxConnections=8",
      "--Health:ConfirmDelay=00:00:02",
      "--Health:MaxMissingPercent=5",
    ],
    listening,
  );
  ui = `${server.url}/ui/`;
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), mock?.stop()]);
});

const logIn = (page: Page) => logInAs(page, { ui, ...account });

/** Adds the mock's NZB as a job through the SABnzbd API, as Sonarr would. */
async function addJob(page: Page, name: string) {
  const response = await page.request.post(`${server.url}/api?mode=addfile&output=json&apikey=${apiKey}&nzbname=${name}`, {
    multipart: { name: { name: `${name}.nzb`, mimeType: "application/x-nzb", buffer: readFileSync(mock.nzb) } },
  });
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: true });
}

/** The number on a count card ("all", "broken", "action", …). */
const count = (page: Page, filter: string) => page.getByTestId(`count-${filter}`).locator(".count-value");

/** The file of a job on the Health page: its rows, found by the job's folder in the path. */
const fileRows = (page: Page, job: string) => page.getByTestId("health-file").filter({ hasText: `/${job}/${fileName}` });

async function openHealth(page: Page) {
  await nav(page, "Health");
  await expect(page.getByRole("heading", { name: "Health", exact: true })).toBeVisible();
  await expect(page.getByTestId("health-policy")).toBeVisible();
}

/** Check now, and wait for what it answers: the check's own answer, then the row showing it. */
async function checkNow(row: Locator, state: string) {
  const [response] = await Promise.all([
    row.page().waitForResponse((r) => r.request().method() === "POST" && /\/ui\/api\/health\/files\/[^/]+\/check$/.test(new URL(r.url()).pathname)),
    row.getByRole("button", { name: "Check now" }).click(),
  ]);
  expect(response.status()).toBe(200);
  expect(((await response.json()) as { message: string }).message).toContain(`State: ${state}.`);
  await expect(row.getByTestId("health-action-message")).toContainText(`State: ${state}.`);
}

/**
 * Check now until the check says `state`: a segment seen missing is confirmed only by a check at
 * least the confirm delay later. Checks before then change nothing (the delay runs from the first sighting).
 */
async function checkUntil(row: Locator, state: string) {
  await expect(async () => checkNow(row, state)).toPass({ timeout: 30_000, intervals: [1_000, 1_000, 2_000] });
}

/** Elements wider than the screen, by tag, class and right edge: none may be at phone width. */
async function overflowing(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest(".h-scroll"));
    return wide.map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 10);
  }, width);
}

test("a hole is suspected, confirmed (Degraded), grows (Broken); repair without Sonarr/Radarr needs action; ignore", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await addJob(page, sample);
  await addJob(page, spare);
  await nav(page, "History");
  for (const job of [sample, spare])
    await expect(page.getByRole("list", { name: "History" }).getByRole("listitem", { name: job, exact: true }).getByTestId("job-status")).toHaveText("Completed", {
      timeout: 60_000,
    });

  // The import check asked about a sample of each file: both are watched, and whole.
  await openHealth(page);
  await expect(page.getByTestId("health-policy")).toHaveText(
    "Scheduled checks: on · import check: on · repair: on · tolerance: ≤3 consecutive segments, ≤5 % of bytes · missing segments confirmed by a second check 2 s later · holes play as zeros · one repair per file in 7 days",
  );
  await expect(count(page, "all")).toHaveText("2");
  const row = fileRows(page, sample);
  await expect(row.getByTestId("health-state")).toHaveText("Healthy");
  await expect(row.getByTestId("health-holes")).toHaveText("none");
  await expect(page.getByTestId("health-stats")).toContainText(/\d+ present · 0 missing · 0 unanswered/);

  // Part 40 disappears: the first check sees it once, which proves nothing yet.
  expect(await controlMockNntp(mock.port, { file: 0, first: 40, last: 40, on: true })).toMatch(/^290 1 articles? changed/);
  await checkNow(row, "Unknown");
  await expect(row.getByTestId("health-action-message")).toHaveText(
    "Checked 80 segments: 79 present, 1 missing on every provider, 0 without an answer. State: Unknown.",
  );
  await expect(row.getByTestId("health-state")).toHaveText("Unknown");
  // Suspected, with the time of the check that confirms or clears it (2 s on: "now" once it is due).
  await expect(row.getByTestId("health-holes")).toHaveText(/^suspected: 1 missing, confirming (at \d\d:\d\d|now)$/);
  await expect(row.getByTestId("health-detail")).toContainText("suspected: 1 segment(s) answered 430 on every provider once; a check 2 s later confirms or clears them");
  await row.screenshot({ path: `${shots}/health-suspected.png` });

  // Seen again after the delay, it is a hole; one segment of 80 is within the tolerance.
  await checkUntil(row, "Degraded");
  await expect(row.getByTestId("health-state")).toHaveText("Degraded");
  await expect(row.getByTestId("health-holes")).toHaveText("1 missing");
  await expect(row.getByTestId("health-detail")).toContainText("1 of 80 segments missing on every provider (segment 40 of 80");
  await expect(row.getByTestId("health-detail")).toContainText("within the tolerance, the holes read as zeros");
  await expect(count(page, "degraded")).toHaveText("1");
  await expect(row.getByTestId("health-repair")).toHaveText("None");
  await expect(row.getByRole("button", { name: "Replace through Sonarr" })).toHaveCount(0);

  // The Files page shows it beside the file, and the badge leads to the Health page's Degraded files.
  await nav(page, "Files");
  await page.getByRole("link", { name: "default/", exact: true }).click();
  await page.getByRole("link", { name: `${sample}/`, exact: true }).click();
  const badge = page.getByTestId("health-badge");
  await expect(badge).toHaveText("degraded");
  await expect(badge).toHaveAttribute("href", "/ui/health?state=degraded");
  await page.screenshot({ path: `${shots}/files-health-badge.png`, fullPage: true });
  await badge.click();
  await expect(page).toHaveURL(/\/ui\/health\?state=degraded$/);
  await expect(page.getByTestId("count-degraded")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("health-file")).toHaveCount(1);
  await expect(fileRows(page, sample)).toHaveCount(1);
  // The other file is healthy: its folder's badge says so.
  await page.getByTestId("count-healthy").click();
  await expect(page).toHaveURL(/\/ui\/health\?state=healthy$/);
  await expect(fileRows(page, spare)).toHaveCount(1);
  await expect(fileRows(page, sample)).toHaveCount(0);
  await page.getByTestId("count-all").click();
  await expect(page).toHaveURL(/\/ui\/health$/);
  await expect(page.getByTestId("health-file")).toHaveCount(2);

  // Ten more in a row go: beyond the tolerance once confirmed, and the file is Broken.
  expect(await controlMockNntp(mock.port, { file: 0, first: 41, last: 50, on: true })).toMatch(/^290 10 articles changed/);
  await checkNow(row, "Degraded");
  await expect(row.getByTestId("health-holes")).toHaveText(/^1 missing · suspected: 10 missing, confirming (at \d\d:\d\d|now)$/);
  await checkUntil(row, "Broken");
  await expect(row.getByTestId("health-state")).toHaveText("Broken");
  await expect(row.getByTestId("health-holes")).toHaveText("11 missing");
  await expect(row.getByTestId("health-detail")).toContainText("11 of 80 segments missing on every provider (segments 40–50 of 80");
  await expect(row.getByTestId("health-detail")).toContainText("11 in a row, more than the 3 tolerated");
  // Found Broken, it went to the repair at once; with no Sonarr/Radarr there is nothing to ask, so it waits for the user.
  await expect(row.getByTestId("health-repair")).toHaveText("Action needed");
  await expect(count(page, "action")).toHaveText("1");
  await expect(count(page, "broken")).toHaveText("1");

  await row.getByRole("button", { name: "Replace through Sonarr" }).click();
  await expect(row.getByTestId("health-action-message")).toHaveText(
    "No Sonarr or Radarr is configured, so nothing could replace the file: add them in Settings → Sonarr and Radarr.",
  );
  await expect(row.getByTestId("health-repair")).toHaveText("Action needed");

  // The audit log, newest first, holds every state change, the checks asked for and the repairs.
  const audit = page.getByRole("table", { name: "Audit log" });
  const entry = (action: string, detail: string | RegExp) => audit.getByTestId("audit-entry").filter({ has: page.getByTestId("audit-action").getByText(action, { exact: true }) }).filter({ hasText: detail });
  await expect(entry("state change", "Healthy → Unknown")).toHaveCount(1);
  await expect(entry("state change", "Unknown → Degraded")).toHaveCount(1);
  await expect(entry("state change", "Degraded → Broken")).toHaveCount(1);
  await expect(entry("repair", "(asked from the UI)")).toHaveCount(1);
  await expect(entry("not repaired", "No Sonarr or Radarr is configured")).toHaveCount(2);
  await expect(audit.getByTestId("audit-entry").first()).toContainText("not repaired");
  await expect(audit).toContainText(`/content/default/${sample}/${fileName}`);

  // The Files page says a Broken file waits for the user.
  await nav(page, "Files");
  await page.getByRole("link", { name: "default/", exact: true }).click();
  await page.getByRole("link", { name: `${sample}/`, exact: true }).click();
  await expect(page.getByTestId("health-badge")).toHaveText("action needed");
  await expect(page.getByTestId("health-badge")).toHaveAttribute("href", "/ui/health?state=action");
  await page.getByTestId("health-badge").click();
  await expect(page.getByTestId("count-action")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("health-file")).toHaveCount(1);
  await expect(fileRows(page, sample)).toHaveCount(1);

  // Kept as it is: no repair until un-ignored (or Replace through Sonarr).
  await page.getByTestId("count-broken").click();
  const broken = fileRows(page, sample);
  await broken.getByRole("button", { name: "Ignore", exact: true }).click();
  await expect(broken.getByTestId("health-action-message")).toHaveText("Kept as it is: no repair will be made.");
  await expect(broken.getByTestId("health-repair")).toHaveText("Ignored");
  // What the last repair found stays with the file.
  await expect(broken.getByTestId("health-repair-message")).toHaveText("Repair: No Sonarr or Radarr is configured, so nothing could replace the file: add them in Settings → Sonarr and Radarr.");
  await expect(broken.getByRole("button", { name: "Un-ignore" })).toBeVisible();
  await expect(broken.getByRole("button", { name: "Ignore", exact: true })).toHaveCount(0);
  // No longer waiting for the user: it leaves the "Action needed" files.
  await expect(count(page, "action")).toHaveText("0");
  await page.getByTestId("count-action").click();
  await expect(page.getByText("No file is in this state.")).toBeVisible();
  await expect(entry("ignored", "Kept as it is by the user")).toHaveCount(1);
  expect(errors).toEqual([]);
});

test("Sonarr/Radarr: the form's checks, a test that fails with the reason, Save anyway, a deferred repair, delete", async ({ page }) => {
  const errors = watchConsole(page);
  // A port nothing listens on.
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  await logIn(page);
  await nav(page, "Settings");
  const card = page.getByRole("region", { name: "Sonarr and Radarr" });
  await expect(card.getByText("No Sonarr or Radarr yet.")).toBeVisible();
  await card.getByRole("button", { name: "Add Sonarr/Radarr" }).click();
  const form = card.getByRole("form", { name: "Add Sonarr/Radarr" });
  await expect(form.getByLabel("Kind")).toHaveValue("Sonarr");
  await expect(form.getByLabel("URL")).toHaveAttribute("placeholder", "http://sonarr:8989");
  await expect(form.getByLabel("Timeout (s)")).toHaveValue("15");

  // What the server would refuse is caught in the form, with what to do.
  await form.getByRole("button", { name: "Save" }).click();
  // Said under the field at fault, which is marked and given the focus.
  await expect(form.getByRole("alert")).toHaveText("Name must be 1 to 64 characters, without ':', '/', '\\', '?' or '#'.");
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toBeFocused();
  await form.getByLabel("Name").fill("sonarr");
  await form.getByLabel("URL").fill(`127.0.0.1:${closed}`);
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByRole("alert")).toContainText("The address must start with http:// or https://");
  await form.getByLabel("URL").fill(`http://127.0.0.1:${closed}`);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByRole("alert")).toHaveText("API key is required.");
  await expect(form.getByLabel("API key")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("API key")).toHaveAccessibleDescription("In Sonarr: Settings → General. API key is required.");
  await expect(form.getByLabel("URL")).not.toHaveAttribute("aria-invalid");
  await form.screenshot({ path: `${shots}/settings-arr-invalid.png` });
  await form.getByLabel("API key").fill("fedcba9876543210fedcba9876543210");
  await form.getByLabel("Categories").fill("tv, anime");

  // Nothing listens there: the test says so.
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByTestId("arr-test").getByRole("alert")).toContainText(
    `Test failed: could not reach http://127.0.0.1:${closed}/api/v3/system/status`,
    { timeout: 20_000 },
  );

  // Saving tests again; refused (422) with the test, and a way to keep it anyway.
  const beforeRefusal = errors.length;
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("alert").first()).toContainText("Not saved: the test failed (could not reach", { timeout: 20_000 });
  expectOnlyRefusals(errors, beforeRefusal, 422);
  await page.screenshot({ path: `${shots}/settings-arr-refused.png`, fullPage: true });
  await form.getByRole("button", { name: "Save anyway" }).click();
  await expect(form).toHaveCount(0);
  const item = card.getByRole("listitem", { name: "sonarr", exact: true });
  await expect(item.getByTestId("arr-kind")).toHaveText("Sonarr");
  await expect(item.getByTestId("arr-state")).toHaveText("enabled");
  await expect(item.getByTestId("arr-source")).toHaveText("from web UI");
  await expect(item.getByTestId("arr-facts")).toHaveText(`http://127.0.0.1:${closed} · API key stored · categories tv, anime · timeout 15 s`);
  // The key never comes back: the edit form offers to keep it.
  await item.getByRole("button", { name: "Edit" }).click();
  const edit = card.getByRole("form", { name: "Edit sonarr" });
  await expect(edit.getByLabel("API key")).toHaveValue("");
  await expect(edit.getByLabel("API key")).toHaveAttribute("placeholder", "stored — leave empty to keep");
  await expect(edit.getByLabel("Categories")).toHaveValue("tv, anime");
  await edit.getByRole("button", { name: "Cancel" }).click();
  const view = (await (await page.request.get(`${server.url}/ui/api/settings`)).json()) as { arr: unknown[] };
  expect(view.arr).toEqual([
    { name: "sonarr", kind: "Sonarr", url: `http://127.0.0.1:${closed}`, hasApiKey: true, enabled: true, categories: ["tv", "anime"], timeoutSeconds: 15, editable: true, source: "web UI" },
  ]);
  expect(JSON.stringify(view)).not.toContain("fedcba9876543210");

  // The section as someone adding an instance sees it: desktop, phone width, dark.
  for (const variant of [
    { suffix: "", width: 1280, dark: false },
    { suffix: "-375", width: 375, dark: false },
    { suffix: "-dark", width: 1280, dark: true },
  ]) {
    await page.emulateMedia({ colorScheme: variant.dark ? "dark" : "light" });
    await page.setViewportSize({ width: variant.width, height: 900 });
    await card.getByRole("button", { name: "Add Sonarr/Radarr" }).click();
    const another = card.getByRole("form", { name: "Add Sonarr/Radarr" });
    await another.getByLabel("Name").fill("radarr");
    await another.getByLabel("Kind").selectOption("Radarr");
    await another.getByLabel("URL").fill(`http://127.0.0.1:${closed}`);
    await another.getByLabel("API key").fill("0000");
    await another.getByRole("button", { name: "Test" }).click();
    await expect(another.getByTestId("arr-test").getByRole("alert")).toContainText("Test failed", { timeout: 20_000 });
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: `${shots}/settings-arr${variant.suffix}.png` });
    expect(await overflowing(page, variant.width), `settings-arr${variant.suffix} is wider than the screen`).toEqual([]);
    await another.getByRole("button", { name: "Cancel" }).click();
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // With a Sonarr that cannot be reached, a repair changes nothing and is tried again later.
  await openHealth(page);
  await page.getByTestId("count-broken").click();
  const broken = fileRows(page, sample);
  await broken.getByRole("button", { name: "Un-ignore" }).click();
  await expect(broken.getByTestId("health-action-message")).toHaveText("Repairs allowed again.");
  await expect(broken.getByTestId("health-repair")).toHaveText("None");
  await broken.getByRole("button", { name: "Replace through Sonarr" }).click();
  await expect(broken.getByTestId("health-action-message")).toContainText("Could not ask", { timeout: 30_000 });
  await expect(broken.getByTestId("health-action-message")).toContainText("nothing was changed and the repair is tried again later");
  await expect(broken.getByTestId("health-repair")).toHaveText("Deferred");
  const audit = page.getByRole("table", { name: "Audit log" });
  await expect(audit.getByTestId("audit-entry").filter({ hasText: `sonarr: GET` }).first()).toContainText("no answer");
  await expect(audit.getByTestId("audit-entry").filter({ hasText: "repair deferred" })).toHaveCount(1);

  // The Health page as it is now, desktop, phone width and dark; nothing wider than the screen.
  await page.getByTestId("count-all").click();
  await expect(page.getByTestId("health-file")).toHaveCount(2);
  for (const variant of [
    { suffix: "", width: 1280, dark: false },
    { suffix: "-375", width: 375, dark: false },
    { suffix: "-dark", width: 1280, dark: true },
  ]) {
    await page.emulateMedia({ colorScheme: variant.dark ? "dark" : "light" });
    await page.setViewportSize({ width: variant.width, height: 900 });
    await expect(page.getByTestId("health-file").first()).toBeVisible();
    await page.screenshot({ path: `${shots}/health${variant.suffix}.png`, fullPage: true });
    expect(await overflowing(page, variant.width), `health${variant.suffix} is wider than the screen`).toEqual([]);
    for (const scroller of await page.locator(".health .table-scroll").all())
      expect(await scroller.evaluate((e) => e.scrollWidth <= e.clientWidth), `health${variant.suffix}: a table scrolls sideways`).toBe(true);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Deleting asks first; cancelled, it stays; confirmed, it goes.
  await nav(page, "Settings");
  const kept = page.getByRole("region", { name: "Sonarr and Radarr" }).getByRole("listitem", { name: "sonarr", exact: true });
  await kept.getByRole("button", { name: "Delete" }).click();
  await kept.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Cancel" }).click();
  await expect(kept).toBeVisible();
  await kept.getByRole("button", { name: "Delete" }).click();
  await kept.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Delete Sonarr" }).click();
  await expect(kept).toHaveCount(0);
  await expect(page.getByText("No Sonarr or Radarr yet.")).toBeVisible();
  expect(((await (await page.request.get(`${server.url}/ui/api/settings`)).json()) as { arr: unknown[] }).arr).toEqual([]);
  expect(errors).toEqual([]);
});

test("a running check shows how many segments have answered, then its result", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openHealth(page);
  const row = fileRows(page, spare);
  await expect(row.getByTestId("health-state")).toHaveText("Healthy");

  // Both jobs are the same articles: the parts the first test took away come back.
  expect(await controlMockNntp(mock.port, "clear")).toBe("290 missing overrides cleared");
  // A slow provider: every answer takes 1–5 s, so the check of 80 segments spans several polls.
  expect(await controlMockNntp(mock.port, { latencyMs: 3_000, jitterMs: 2_000 })).toBe("290 latency 3000 ms ± 2000 ms");
  try {
    await row.getByRole("button", { name: "Check now" }).click();
    const progress = row.getByTestId("health-progress");
    await expect(progress).toHaveText(/^Checking: \d+ of 80 segments answered \(\d+ present, 0 missing everywhere, 0 unanswered\)$/);
    await expect(progress.getByRole("progressbar")).toHaveAttribute("max", "80");
    await row.screenshot({ path: `${shots}/health-check-progress.png` });
    await expect(row.getByTestId("health-action-message")).toHaveText(
      "Checked 80 segments: 80 present, 0 missing on every provider, 0 without an answer. State: Healthy.",
      { timeout: 30_000 },
    );
    await expect(progress).toHaveCount(0);
  } finally {
    await controlMockNntp(mock.port, { latencyMs: 0 });
  }
  expect(errors).toEqual([]);
});
