import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { startServer, type RunningServer } from "./server";
import { logIn as logInAs, settled } from "./pages";

// WCAG 2.1 AA on every page of the UI, in both themes, against the real server in demo mode:
// axe-core's rules for levels A and AA (colour contrast among them), 0 violations.

let server: RunningServer;
let demo: { user: string; password: string; ui: string };

test.beforeAll(async () => {
  server = await startServer(["--demo"], /NZBDAV-DEMO url=(http:\/\/\S+) /);
  const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output());
  if (!line) throw new Error(`no demo line in:\n${server.output()}`);
  demo = { user: line[2]!, password: line[3]!, ui: line[5]! };
});

test.afterAll(async () => {
  await server?.stop();
});

/** Each page at its address, with what shows it has loaded its data. */
const pages: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: "Dashboard", path: "/ui/", ready: (p) => expect(p.getByTestId("live-state")).toHaveText("live") },
  { name: "Queue", path: "/ui/queue", ready: (p) => expect(p.getByTestId("queue-state")).toBeVisible() },
  { name: "History", path: "/ui/history", ready: (p) => expect(p.getByTestId("page-range")).toBeVisible() },
  { name: "Files", path: "/ui/files", ready: (p) => expect(p.getByRole("table").or(p.getByRole("list")).first()).toBeVisible() },
  { name: "Health", path: "/ui/health", ready: (p) => expect(p.getByRole("heading", { name: "Audit log" })).toBeVisible() },
  { name: "Logs", path: "/ui/logs", ready: (p) => expect(p.getByRole("log")).toContainText("Generated") },
  { name: "Status", path: "/ui/status", ready: (p) => expect(p.getByTestId("health")).toHaveText("ok") },
  { name: "Settings", path: "/ui/settings", ready: (p) => expect(p.getByRole("form", { name: "Streaming settings" })).toBeVisible() },
  { name: "Integrations", path: "/ui/settings/integrations", ready: (p) => expect(p.getByTestId("sab-host")).toBeVisible() },
  { name: "Account", path: "/ui/account", ready: (p) => expect(p.getByLabel("Current password")).toBeVisible() },
  { name: "Not found", path: "/ui/no-such-page", ready: (p) => expect(p.getByRole("heading").first()).toBeVisible() },
];

const wcagAA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

async function violations(page: Page, where: string): Promise<string[]> {
  await settled(page);
  const result = await new AxeBuilder({ page }).withTags(wcagAA).analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) at ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`));
}

for (const scheme of ["light", "dark"] as const) {
  test(`every page meets WCAG 2.1 AA in the ${scheme} theme (axe-core: 0 violations)`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found: string[] = [];

    // The login page, before logging in.
    await page.goto(demo.ui);
    await expect(page.getByRole("heading", { name: "Log in to NzbDav" })).toBeVisible();
    found.push(...(await violations(page, `Login (${scheme})`)));

    await logInAs(page, demo);
    for (const target of pages) {
      await page.goto(server.url + target.path);
      await target.ready(page);
      found.push(...(await violations(page, `${target.name} (${scheme})`)));
    }
    expect(found, found.join("\n")).toEqual([]);
  });
}

test("a skip link is the first stop of the keyboard and takes it past the navigation", async ({ page }) => {
  await logInAs(page, demo);
  await page.goto(server.url + "/ui/queue");
  await expect(page.getByTestId("queue-state")).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  // The next Tab lands in the page, not in the navigation's nine links.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
});

test("at 375 px the navigation is one row under the name; the 404 page leads to the dashboard; Copied moves nothing", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 375, height: 720 });
  await logInAs(page, demo);
  const nav = page.getByRole("navigation", { name: "Main" });
  const link = await nav.getByRole("link", { name: "Dashboard", exact: true }).boundingBox();
  const box = await nav.boundingBox();
  // One row of links (it scrolls sideways), not three.
  expect(box!.height).toBeLessThan(link!.height * 2);
  expect((await page.locator(".topbar").boundingBox())!.height).toBeLessThan(110);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await nav.getByRole("link", { name: "Account", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Account" })).toBeVisible();

  await page.goto(server.url + "/ui/no-such-page");
  await page.getByRole("link", { name: "Back to the dashboard" }).click();
  await expect(page.getByTestId("live-state")).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(server.url + "/ui/settings/integrations");
  // The copy control keeps its size when "Copied" shows, so what follows it on the line stays put.
  const control = page.locator(".copy").first();
  await expect(control).toBeVisible();
  const before = await control.boundingBox();
  await control.getByRole("button").click();
  await expect(control.getByRole("status")).toHaveText("Copied");
  expect(await control.boundingBox()).toEqual(before);
});
