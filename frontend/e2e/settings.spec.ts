import { expect, test, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { expectOnlyRefusals, watchConsole } from "./console";
import { logIn as logInAs, nav, nextPolls, settled } from "./pages";

// The Settings page against the real server in demo mode (8 connections of its own mock provider,
// set by demo mode), plus a second mock Usenet server that asks for a login (u / p).

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

let server: RunningServer;
let mock: RunningMockNntp;
let demo: { origin: string; user: string; password: string; apiKey: string; ui: string };

test.describe.configure({ mode: "serial" });
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test.beforeAll(async () => {
  [server, mock] = await Promise.all([
    startServer(["--demo"], /NZBDAV-DEMO url=(http:\/\/\S+) /),
    startMockNntp(["--size", "1", "--user", "u", "--pass", "p"]),
  ]);
  const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output());
  if (!line) throw new Error(`no demo line in:\n${server.output()}`);
  demo = { origin: server.url, user: line[2]!, password: line[3]!, apiKey: line[4]!, ui: line[5]! };
});

test.afterAll(async () => {
  await Promise.all([server?.stop(), mock?.stop()]);
});

const logIn = (page: Page) => logInAs(page, demo);

async function openSettings(page: Page) {
  await nav(page, "Settings");
  await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
  await expect(page.getByRole("list", { name: "Providers" })).toBeVisible();
}

const providerItem = (page: Page, name: string) => page.getByRole("list", { name: "Providers" }).getByRole("listitem", { name, exact: true });

async function fillProvider(form: Locator, name: string, password: string) {
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Host", { exact: true }).fill("127.0.0.1");
  await form.getByLabel("Port", { exact: true }).fill(String(mock.port));
  await form.getByLabel("TLS", { exact: true }).uncheck();
  await form.getByLabel("User", { exact: true }).fill("u");
  await form.getByLabel("Password", { exact: true }).fill(password);
  await form.getByLabel("Max connections", { exact: true }).fill("4");
}

interface ApiProvider {
  name: string;
  enabled: boolean;
  [field: string]: unknown;
}

interface ApiSettings {
  providers: ApiProvider[];
  settings: { key: string; value: string | null; stored: boolean }[];
}

async function apiSettings(page: Page): Promise<ApiSettings> {
  const response = await page.request.get(`${demo.origin}/ui/api/settings`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiSettings;
}

/** A settings answer without its field declarations (the form's description, not stored values). */
function withoutDeclarations(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== "providerFields" && key !== "arrFields"));
}

/** Every string anywhere in a JSON value, and every key. */
function strings(value: unknown, found: string[] = []): string[] {
  if (typeof value === "string") found.push(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, found));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      found.push(k);
      strings(v, found);
    }
  return found;
}

test("add a provider: the test shows each step, the save keeps it editable, its password never comes back", async ({ page }) => {
  const errors = watchConsole(page);
  // Every JSON answer of the UI API during the test, to look for the password in.
  const answers: Promise<unknown>[] = [];
  page.on("response", (response) => {
    if (response.url().includes("/ui/api/") && (response.headers()["content-type"] ?? "").includes("application/json")) answers.push(response.json().catch(() => null));
  });
  await logIn(page);
  await openSettings(page);

  // The demo's provider comes from demo mode: shown, with no way to change it here.
  const demoProvider = providerItem(page, "demo-mock");
  await expect(demoProvider.getByTestId("provider-source")).toHaveText("from demo mode");
  await expect(demoProvider.getByRole("button", { name: "Edit" })).toHaveCount(0);
  await expect(demoProvider.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(demoProvider.getByRole("checkbox", { name: "Enabled" })).toHaveCount(0);

  await page.getByRole("button", { name: "Add provider" }).click();
  const form = page.getByRole("form", { name: "Add provider" });
  // The defaults most providers want.
  await expect(form.getByLabel("Port", { exact: true })).toHaveValue("563");
  await expect(form.getByLabel("TLS", { exact: true })).toBeChecked();
  await expect(form.getByLabel("Max connections", { exact: true })).toHaveValue("10");
  await expect(form.getByLabel("Pipeline depth", { exact: true })).toHaveValue("4");
  await expect(form.getByLabel("Priority", { exact: true })).toHaveAccessibleDescription("Lower is tried first.");
  // Without TLS there is no certificate to allow.
  await form.getByLabel("TLS", { exact: true }).uncheck();
  await expect(form.getByLabel("Allow untrusted certificate", { exact: true })).toBeDisabled();
  await form.getByLabel("TLS", { exact: true }).check();
  await expect(form.getByLabel("Allow untrusted certificate", { exact: true })).toBeEnabled();
  // What the server would refuse is caught in the form, under the field at fault.
  await form.getByLabel("Name", { exact: true }).fill("second");
  await form.getByLabel("Host", { exact: true }).fill("news example");
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByRole("alert")).toHaveText("Host must be 1 to 253 characters, without spaces or tabs.");
  await expect(form.getByLabel("Host", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await fillProvider(form, "second", "p");

  await form.getByRole("button", { name: "Test" }).click();
  const result = form.getByTestId("provider-test");
  await expect(result.getByText("Test passed")).toBeVisible({ timeout: 20_000 });
  const steps = result.getByRole("list", { name: "Test steps" }).getByRole("listitem");
  await expect(steps.filter({ hasText: /^✓ connect · [\d.]+ m?s · 127\.0\.0\.1:\d+/ })).toHaveCount(1);
  await expect(steps.filter({ hasText: /^✓ greeting and login · [\d.]+ m?s · logged in as u$/ })).toHaveCount(1);
  await expect(steps.filter({ hasText: /^✗/ })).toHaveCount(0);
  const figures = result.getByRole("list", { name: "Test figures" });
  await expect(figures).toContainText("Greeting: 200");
  await expect(figures).toContainText(/Round trip: [\d.]+ m?s/);
  // The probe takes the newest demo job's articles, which this server does not have: reported, not failed.
  await expect(figures).toContainText(/Articles: \d+ of \d+ found, \d+ articles\/s/);

  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toHaveCount(0);
  const second = providerItem(page, "second");
  await expect(second.getByTestId("provider-source")).toHaveText("from web UI");
  await expect(second.getByTestId("provider-state")).toHaveText("enabled");
  await expect(second).toContainText(`127.0.0.1:${mock.port} · no TLS · user u, password stored · 4 connections`);
  await expect(second.getByRole("button", { name: "Edit" })).toBeVisible();
  // Its 4 connections join the demo's 8 in the budget.
  await expect(page.getByText("of 12 connections in use")).toBeVisible();

  // Editing shows the stored password only as a placeholder.
  await second.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: "Edit second" });
  await expect(edit.getByLabel("Password", { exact: true })).toHaveValue("");
  await expect(edit.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "stored — leave empty to keep");
  // A stored password can be dropped; the field is then out of use.
  await edit.getByLabel("Remove the stored password", { exact: true }).check();
  await expect(edit.getByLabel("Password", { exact: true })).toBeDisabled();
  await page.getByRole("region", { name: "Providers" }).screenshot({ path: `${shots}/settings-provider-edit.png` });
  await edit.getByLabel("Remove the stored password", { exact: true }).uncheck();
  await expect(edit.getByLabel("Password", { exact: true })).toBeEnabled();
  await expect(edit.getByLabel("Host", { exact: true })).toHaveValue("127.0.0.1");
  // A test of the saved provider with the field empty uses the stored password.
  await edit.getByRole("button", { name: "Test" }).click();
  await expect(edit.getByTestId("provider-test").getByText("Test passed")).toBeVisible({ timeout: 20_000 });
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(edit).toHaveCount(0);

  const view = await apiSettings(page);
  const saved = view.providers.find((p) => p.name === "second");
  expect(saved).toMatchObject({ host: "127.0.0.1", port: mock.port, useTls: false, user: "u", hasPassword: true, maxConnections: 4, editable: true, source: "web UI" });
  expect(Object.keys(saved!)).not.toContain("password");

  // No answer the browser got holds the password, or a field named password — but for the field
  // declarations (providerFields, arrFields), which name the form's fields and hold no values.
  const everything = (await Promise.all(answers)).flatMap((a) => strings(withoutDeclarations(a)));
  expect(everything.length).toBeGreaterThan(50);
  expect(everything.filter((s) => s === "p" || s.toLowerCase() === "password")).toEqual([]);
  expect(errors).toEqual([]);
});

test("a provider whose test fails: the reason, then Save anyway keeps it; delete asks first", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  await page.getByRole("button", { name: "Add provider" }).click();
  const form = page.getByRole("form", { name: "Add provider" });
  await fillProvider(form, "wrong-login", "wrong");

  await form.getByRole("button", { name: "Test" }).click();
  const result = form.getByTestId("provider-test");
  await expect(result.getByRole("alert")).toHaveText(
    "Test failed: greeting and login failed: 'wrong-login' refused the login (481 authentication failed): check the user name and password.",
    { timeout: 20_000 },
  );
  const steps = result.getByRole("list", { name: "Test steps" }).getByRole("listitem");
  await expect(steps.filter({ hasText: /^✓ connect/ })).toHaveCount(1);
  await expect(steps.filter({ hasText: /^✗ greeting and login · 'wrong-login' refused the login \(481 authentication failed\): check the user name and password\.$/ })).toHaveCount(1);

  // Saving tests again; refused (422) with the test, and a way to keep it anyway.
  const beforeRefusal = errors.length;
  await form.getByRole("button", { name: "Save" }).click();
  const refusal = form.getByRole("alert");
  await expect(refusal).toContainText("Not saved: the test failed (greeting and login failed: 'wrong-login' refused the login (481 authentication failed)");
  await expect(form.getByTestId("provider-test").getByRole("listitem").filter({ hasText: /^✗ greeting and login/ })).toHaveCount(1);
  expectOnlyRefusals(errors, beforeRefusal, 422);
  expect((await apiSettings(page)).providers.map((p) => p.name)).not.toContain("wrong-login");

  await form.getByRole("button", { name: "Save anyway" }).click();
  await expect(form).toHaveCount(0);
  const kept = providerItem(page, "wrong-login");
  await expect(kept.getByTestId("provider-source")).toHaveText("from web UI");
  expect((await apiSettings(page)).providers.find((p) => p.name === "wrong-login")).toMatchObject({ user: "u", hasPassword: true, enabled: true });

  // Deleting asks first; cancelled, it stays; confirmed, it goes.
  await kept.getByRole("button", { name: "Delete" }).click();
  await kept.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Cancel" }).click();
  await expect(kept).toBeVisible();
  await kept.getByRole("button", { name: "Delete" }).click();
  await kept.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Delete provider" }).click();
  await expect(kept).toHaveCount(0);
  expect((await apiSettings(page)).providers.map((p) => p.name)).toEqual(["demo-mock", "second"]);
  expect(errors).toEqual([]);
});

test("a provider turned off and on with its toggle leaves and rejoins the budget", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  const second = providerItem(page, "second");
  const toggle = second.getByRole("checkbox", { name: "Enabled" });
  await expect(toggle).toBeChecked();

  await toggle.uncheck();
  await expect(second.getByTestId("provider-state")).toHaveText("disabled");
  await expect(page.getByText("of 8 connections in use")).toBeVisible();
  expect((await apiSettings(page)).providers.find((p) => p.name === "second")).toMatchObject({ enabled: false, hasPassword: true });
  // Still off after a reload, from the server.
  await page.reload();
  await expect(providerItem(page, "second").getByTestId("provider-state")).toHaveText("disabled");
  await expect(providerItem(page, "second").getByRole("checkbox", { name: "Enabled" })).not.toBeChecked();

  await providerItem(page, "second").getByRole("checkbox", { name: "Enabled" }).check();
  await expect(providerItem(page, "second").getByTestId("provider-state")).toHaveText("enabled");
  await expect(page.getByText("of 12 connections in use")).toBeVisible();
  expect((await apiSettings(page)).providers.find((p) => p.name === "second")).toMatchObject({ enabled: true, hasPassword: true });
  expect(errors).toEqual([]);
});

test("a provider's speed cap and allowances typed as sizes; the global cap and its schedule refused naming the field, then in effect", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  await providerItem(page, "second").getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: "Edit second" });
  const daily = edit.getByLabel("Daily allowance", { exact: true });
  await expect(daily).toHaveValue("");
  await expect(daily).toHaveAttribute("placeholder", "none, e.g. 50 GiB");
  await daily.fill("lots");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit.getByRole("alert")).toHaveText("Daily allowance: 'lots' is not a size; write bytes or a number with a unit, e.g. 64 MiB, 64MB or 1.5 GiB.");
  await daily.fill("50 GiB");
  await edit.getByLabel("Max speed (per second)", { exact: true }).fill("20m");
  await edit.getByLabel("Monthly allowance", { exact: true }).fill("1.5 TiB");
  await edit.getByLabel("Month starts on day", { exact: true }).fill("15");
  await edit.getByLabel("Max speed (per second)", { exact: true }).scrollIntoViewIfNeeded();
  await edit.screenshot({ path: `${shots}/settings-provider-limits.png` });
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toHaveCount(0);
  const second = providerItem(page, "second");
  await expect(second).toContainText("at most 20 MiB/s · 50 GiB a day · 1.5 TiB a month from day 15");
  expect((await apiSettings(page)).providers.find((p) => p.name === "second")).toMatchObject({
    maxBytesPerSecond: 20 * 1024 ** 2,
    dailyQuotaBytes: 50 * 1024 ** 3,
    monthlyQuotaBytes: 1.5 * 1024 ** 4,
    quotaResetDay: 15,
    windowQuotaBytes: null,
  });

  const bandwidth = page.getByRole("form", { name: "Bandwidth settings" });
  const cap = bandwidth.getByLabel("Provider bandwidth cap (per second)", { exact: true });
  const schedule = bandwidth.getByLabel("Bandwidth schedule", { exact: true });
  await expect(cap).toHaveAttribute("placeholder", "automatic: no cap");
  const beforeRefusal = errors.length;
  await cap.fill("50 MiB");
  await schedule.fill("01:00-07:00=unlimited, 06:00-08:00=10 MiB");
  await bandwidth.getByRole("button", { name: "Save" }).click();
  // The server's refusal, under the field it names and for the form.
  const overlap = "Bandwidth schedule (Usenet:Bandwidth:Schedule): '01:00-07:00=unlimited' and '06:00-08:00=10 MiB' overlap; each time of day may have one rate only.";
  await expect(bandwidth.locator(".field-error")).toHaveText(overlap);
  await expect(schedule).toHaveAttribute("aria-invalid", "true");
  await expect(bandwidth.getByRole("alert").last()).toHaveText(overlap);
  expectOnlyRefusals(errors, beforeRefusal, 400);
  // Nothing of it was applied: not the cap either.
  expect((await apiSettings(page)).settings.find((s) => s.key === "Usenet:Bandwidth:MaxBytesPerSecond")?.value).toBeNull();

  await schedule.fill("01:00-07:00=unlimited");
  await bandwidth.getByRole("button", { name: "Save" }).click();
  await expect(bandwidth.getByRole("status")).toHaveText("Saved — in effect now");
  const stored = (await apiSettings(page)).settings;
  expect(stored.find((s) => s.key === "Usenet:Bandwidth:MaxBytesPerSecond")?.value).toBe(String(50 * 1024 ** 2));
  expect(stored.find((s) => s.key === "Usenet:Bandwidth:Schedule")?.value).toBe("01:00-07:00=unlimited");
  await page.getByRole("region", { name: "Bandwidth" }).screenshot({ path: `${shots}/settings-bandwidth.png` });
  // The dashboard says what holds now (full speed between 01:00 and 07:00 of the server's time zone).
  await nav(page, "Dashboard");
  await expect(page.getByTestId("bandwidth")).toHaveText(/^Bandwidth( cap 52\.4 MB\/s: (not reached|reached; .*)\.|: full speed now, by the schedule\.)$/);
  await openSettings(page);

  // Back to no cap, and the provider to no limits, for the tests after this one.
  for (const label of ["Provider bandwidth cap (per second)", "Bandwidth schedule"]) await bandwidth.getByRole("button", { name: `Reset ${label}` }).click();
  await expect(cap).toHaveValue("");
  await providerItem(page, "second").getByRole("button", { name: "Edit" }).click();
  for (const label of ["Max speed (per second)", "Daily allowance", "Monthly allowance"]) await page.getByRole("form", { name: "Edit second" }).getByLabel(label, { exact: true }).fill("");
  await page.getByRole("form", { name: "Edit second" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("form", { name: "Edit second" })).toHaveCount(0);
  await expect(providerItem(page, "second")).not.toContainText("a day");
  expect(errors).toEqual([]);
});

test("pool shares: a queue guarantee of 2 is in effect on both pages; one that starves streaming is refused", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  const shares = page.getByRole("form", { name: "Connection shares" });
  const queueGuarantee = shares.getByLabel("Queue guarantee", { exact: true });
  const guaranteed = page.getByTestId("budget-queue-guaranteed");
  // Automatic: a tenth of 12.
  await expect(guaranteed).toHaveText("1");
  await expect(queueGuarantee).toHaveValue("");
  await expect(queueGuarantee).toHaveAttribute("placeholder", "automatic: a tenth of the budget");
  await expect(shares.getByRole("button", { name: "Save" })).toBeDisabled();

  await queueGuarantee.fill("2");
  await shares.getByRole("button", { name: "Save" }).click();
  await expect(shares.getByRole("status")).toHaveText("Saved — in effect now");
  await expect(guaranteed).toHaveText("2");
  await expect(page.getByTestId("budget-streaming-guaranteed")).toHaveText("9");
  await expect(queueGuarantee).toHaveValue("2");
  await expect(shares.getByRole("button", { name: "Reset Queue guarantee" })).toBeVisible();

  await nav(page, "Dashboard");
  await expect(page.getByTestId("live-state")).toHaveText("live");
  await expect(page.getByTestId("pool-queue")).toContainText(/in use · 2 guaranteed · 12 max/);

  await openSettings(page);
  const beforeRefusal = errors.length;
  await queueGuarantee.fill("7");
  await shares.getByRole("button", { name: "Save" }).click();
  await expect(shares.getByRole("alert")).toHaveText(
    "Usenet:Limiter: QueueGuarantee (7) + HealthCheckGuarantee (1) leave streaming 4 of 12 connections; together they may reserve at most 6 so streaming keeps at least half. Lower them.",
  );
  expectOnlyRefusals(errors, beforeRefusal, 400);
  // What is in effect stays 2, across the next polls too.
  await nextPolls(page, "/ui/api/settings");
  await expect(guaranteed).toHaveText("2");
  expect((await apiSettings(page)).settings.find((s) => s.key === "Usenet:Limiter:QueueGuarantee")?.value).toBe("2");
  // The typed 7 stays in the field to correct.
  await expect(queueGuarantee).toHaveValue("7");

  // Reset drops the UI's value: automatic again.
  await shares.getByRole("button", { name: "Reset Queue guarantee" }).click();
  await expect(guaranteed).toHaveText("1");
  await expect(shares.getByRole("status")).toHaveText("Saved — in effect now");
  await expect(shares.getByRole("button", { name: "Reset Queue guarantee" })).toHaveCount(0);
  expect((await apiSettings(page)).settings.find((s) => s.key === "Usenet:Limiter:QueueGuarantee")?.value).toBeNull();
  expect(errors).toEqual([]);
});

test("generic settings: a checkbox, a number and sizes in units saved, shown as from the web UI, reset", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  const streaming = page.getByRole("form", { name: "Streaming settings" });
  const unverified = streaming.getByLabel("Serve unverified bytes", { exact: true });
  await expect(unverified).toBeChecked();
  const startReadAhead = streaming.getByLabel("Read-ahead at start", { exact: true });
  // Sizes are shown in units, with the bytes they mean beside them.
  await expect(startReadAhead).toHaveValue("64 MiB");
  await expect(page.getByTestId("hint-Streaming:StartReadAheadBytes")).toHaveText("67,108,864 bytes");
  await expect(streaming.getByLabel("Memory budget", { exact: true })).toHaveValue("112 MiB");
  await expect(page.getByRole("form", { name: "SABnzbd settings" }).getByLabel("Largest NZB", { exact: true })).toHaveValue(/ (MiB|GiB)$/);

  // What cannot be read is refused in the field, naming it, and nothing is sent.
  const beforeTyping = errors.length;
  await startReadAhead.fill("abc");
  const fieldError = streaming.locator(".field-error");
  await expect(fieldError).toHaveText("Read-ahead at start: 'abc' is not a size; write bytes or a number with a unit, e.g. 64 MiB, 64MB or 1.5 GiB.");
  await expect(startReadAhead).toHaveAttribute("aria-invalid", "true");
  await streaming.getByRole("button", { name: "Save" }).click();
  await expect(streaming.getByRole("alert").last()).toHaveText("Nothing was saved: correct the field marked above.");
  await startReadAhead.fill("1 TiB");
  await expect(fieldError).toHaveText(/^Read-ahead at start must be between 1 B and \d+(\.\d+)? [KMG]iB; 1 TiB is not\.$/);
  expect(errors.length).toBe(beforeTyping);

  // "64MB" and "1.5 GiB" are saved as the bytes they mean and shown back in units.
  await startReadAhead.fill("32MB");
  await expect(page.getByTestId("hint-Streaming:StartReadAheadBytes")).toHaveText("33,554,432 bytes");
  await expect(fieldError).toHaveCount(0);
  await streaming.getByLabel("Memory budget", { exact: true }).fill("1.5 GiB");
  await unverified.uncheck();
  await streaming.getByRole("button", { name: "Save" }).click();
  await expect(streaming.getByRole("status")).toHaveText("Saved — in effect now");
  const stored = (await apiSettings(page)).settings;
  expect(stored.find((s) => s.key === "Streaming:StartReadAheadBytes")?.value).toBe("33554432");
  expect(stored.find((s) => s.key === "Streaming:MemoryBudgetBytes")?.value).toBe("1610612736");
  await page.reload();
  await expect(streaming.getByLabel("Serve unverified bytes", { exact: true })).not.toBeChecked();
  await expect(startReadAhead).toHaveValue("32 MiB");
  await expect(streaming.getByLabel("Memory budget", { exact: true })).toHaveValue("1.5 GiB");
  await expect(streaming).toContainText("from web UI");


  for (const label of ["Serve unverified bytes", "Read-ahead at start", "Memory budget"]) await streaming.getByRole("button", { name: `Reset ${label}` }).click();
  await expect(streaming.getByLabel("Serve unverified bytes", { exact: true })).toBeChecked();
  await expect(streaming.getByLabel("Read-ahead at start", { exact: true })).toHaveValue("64 MiB");
  await expect(streaming.getByLabel("Memory budget", { exact: true })).toHaveValue("112 MiB");
  await expect(streaming).not.toContainText("from web UI");
  expect(errors).toEqual([]);
});

test("SABnzbd: the API key shown on request, copied, regenerated; the old key is refused from then on", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  const sab = page.getByRole("region", { name: "SABnzbd", exact: true });
  const key = sab.getByTestId("api-key");
  await expect(key).toHaveText(/^•{32}$/);
  await sab.getByRole("button", { name: "Show" }).click();
  await expect(key).toHaveText(demo.apiKey);
  await sab.getByRole("button", { name: "Copy" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(demo.apiKey);

  const sabApi = (apiKey: string) => page.request.get(`${demo.origin}/api?mode=queue&output=json&apikey=${apiKey}`);
  expect(await (await sabApi(demo.apiKey)).json()).toHaveProperty("queue");

  // Asked first; cancelled, nothing changes.
  await sab.getByRole("button", { name: "Regenerate", exact: true }).click();
  const confirm = sab.getByRole("group", { name: "Confirm regenerate" });
  await expect(confirm).toContainText("Sonarr/Radarr stop working until you paste the new key.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(key).toHaveText(demo.apiKey);

  await sab.getByRole("button", { name: "Regenerate", exact: true }).click();
  await confirm.getByRole("button", { name: "Regenerate key" }).click();
  await expect(key).not.toHaveText(demo.apiKey);
  await expect(key).toHaveText(/^[0-9a-f]{32}$/);
  const fresh = (await key.textContent())!;
  await expect(sab.getByRole("status").filter({ hasText: "New key in effect" })).toBeVisible();

  expect(await (await sabApi(demo.apiKey)).json()).toEqual({ status: false, error: "API Key Incorrect" });
  expect(await (await sabApi(fresh)).json()).toHaveProperty("queue");
  // The page keeps showing the new one after the next polls and a reload.
  await page.reload();
  await sab.getByRole("button", { name: "Show" }).click();
  await expect(key).toHaveText(fresh);
  expect(errors).toEqual([]);
});

test("the page at desktop width, at 375 px and dark, with nothing overflowing; locked values say so", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);

  // The demo sets the WebDAV account in demo mode: shown, not editable.
  const webdav = page.getByRole("form", { name: "WebDAV account" });
  await expect(webdav.getByLabel("WebDAV user")).toHaveValue(demo.user);
  await expect(webdav.getByLabel("WebDAV user")).toBeDisabled();
  await expect(webdav.getByLabel("New WebDAV password", { exact: true })).toBeDisabled();
  await expect(webdav).toContainText("The password is set in the configuration (NzbDav:WebDav:Password); change it there.");
  await expect(webdav.getByRole("button", { name: "Save account" })).toBeDisabled();
  await expect(page.getByRole("link", { name: "Account page" })).toHaveAttribute("href", "/ui/account");

  const variants = [
    { suffix: "", width: 1280, dark: false },
    { suffix: "-375", width: 375, dark: false },
    { suffix: "-dark", width: 1280, dark: true },
  ];
  for (const variant of variants) {
    await page.emulateMedia({ colorScheme: variant.dark ? "dark" : "light" });
    await page.setViewportSize({ width: variant.width, height: 900 });
    await page.reload();
    await expect(page.getByRole("list", { name: "Providers" })).toBeVisible();
    // The form open, with a test result, as someone adding a provider sees it.
    await page.getByRole("button", { name: "Add provider" }).click();
    const form = page.getByRole("form", { name: "Add provider" });
    await fillProvider(form, "third", "p");
    await form.getByRole("button", { name: "Test" }).click();
    await expect(form.getByTestId("provider-test").getByText("Test passed")).toBeVisible({ timeout: 20_000 });
    await settled(page);
    await page.screenshot({ path: `${shots}/settings${variant.suffix}.png`, fullPage: true });
    const overflowing = await page.evaluate((width) => {
      const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5 && !e.closest(".table-scroll, .h-scroll"));
      return wide.map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${Math.round(e.getBoundingClientRect().right)}`).slice(0, 10);
    }, variant.width);
    expect(overflowing, `settings${variant.suffix} is wider than the screen`).toEqual([]);
    // The pools table fits too, without scrolling sideways.
    expect(await page.locator(".budget .table-scroll").evaluate((e) => e.scrollWidth <= e.clientWidth), `settings${variant.suffix}: the pools table scrolls`).toBe(true);
  }
  expect(errors).toEqual([]);
});

test("every kind of field given empty, too long, the wrong type or out of range says so under itself, and nothing is half-saved", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page);
  await openSettings(page);
  const queue = page.getByRole("form", { name: "Queue settings" });
  const sab = page.getByRole("form", { name: "SABnzbd settings" });
  const mount = page.getByRole("form", { name: "Mount settings" });
  const webdav = page.getByRole("form", { name: "WebDAV settings" });
  /** The message under a field, found through the field's own description (aria-describedby). */
  const messageOf = async (field: Locator) => {
    await expect(field).toHaveAttribute("aria-invalid", "true");
    return field.evaluate((e) => {
      const ids = (e.getAttribute("aria-describedby") ?? "").split(" ");
      return ids.map((id) => document.getElementById(id)).find((d) => d?.classList.contains("field-error"))?.textContent ?? "";
    });
  };

  // A whole number: the browser's number field takes no letters (the wrong type cannot be typed);
  // out of range is said as it is typed.
  const jobs = queue.getByLabel("Jobs at once", { exact: true });
  const articles = queue.getByLabel("Articles in flight per job", { exact: true });
  await expect(jobs).toHaveAttribute("type", "number");
  await articles.fill("48"); // a good edit beside a bad one: it must not be saved alone
  await jobs.fill("99");
  expect(await messageOf(jobs)).toBe("Jobs at once must be between 1 and 16; 99 is not.");
  await queue.getByRole("button", { name: "Save" }).click();
  await expect(queue.getByRole("alert").last()).toHaveText("Nothing was saved: correct the field marked above.");
  // Empty (said once Save was tried, not while someone is still typing).
  await jobs.fill("");
  expect(await messageOf(jobs)).toBe("Jobs at once cannot be empty.");

  // A list of names: one that cannot be a category.
  const categories = sab.getByLabel("Categories", { exact: true });
  await categories.fill("tv, movies, ../etc");
  expect(await messageOf(categories)).toBe("Categories: '../etc' is not a usable name (letters, digits, '-', '_' and '.' only, at most 64).");

  // A text: too long (a paste gone wrong), then of the wrong shape.
  const publicUrl = webdav.getByLabel("Public URL", { exact: true });
  await publicUrl.fill(`https://example.com/${"a".repeat(2000)}`);
  expect(await messageOf(publicUrl)).toBe("Public URL can have at most 1,024 characters; this has 2,020.");
  await publicUrl.fill("dav.example.com");
  expect(await messageOf(publicUrl)).toBe("Public URL must be an http:// or https:// address; 'dav.example.com' is not.");
  const mountPath = mount.getByLabel("Mount path", { exact: true });
  await mountPath.fill("mnt/nzbdav");
  expect(await messageOf(mountPath)).toBe("Mount path must be an absolute path (starting with '/'); 'mnt/nzbdav' is not.");
  await queue.screenshot({ path: `${shots}/settings-field-errors.png` });

  // Nothing of the refused forms reached the server, not even the good edit beside the bad one.
  const stored = (await apiSettings(page)).settings;
  for (const key of ["NzbDav:Queue:ArticleConcurrency", "NzbDav:Queue:MaxConcurrentJobs", "NzbDav:Categories", "NzbDav:WebDav:PublicUrl", "NzbDav:MountPath"])
    expect(stored.find((s) => s.key === key)?.stored, key).toBe(false);

  // A provider's form: an integer out of range, a text too long, each under its field.
  await page.getByRole("button", { name: "Add provider" }).click();
  const form = page.getByRole("form", { name: "Add provider" });
  await form.getByLabel("Name", { exact: true }).fill("third");
  await form.getByLabel("Host", { exact: true }).fill("news.example.com");
  await form.getByLabel("Port", { exact: true }).fill("70000");
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByLabel("Port", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("alert").filter({ hasText: /^Port must be/ })).toContainText("65535");
  await form.getByLabel("Port", { exact: true }).fill("563");
  await form.getByLabel("Name", { exact: true }).fill("n".repeat(65));
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByRole("alert").filter({ hasText: /^Name must be/ })).toContainText("64 characters");
  await form.getByRole("button", { name: "Cancel" }).click();
  await expect(providerItem(page, "n".repeat(65))).toHaveCount(0);
  expect(errors).toEqual([]);
});
