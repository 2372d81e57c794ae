import { expect, test } from "@playwright/test";
import { startServer, type RunningServer } from "./server";
import { watchConsole } from "./console";

// The login rate limit as a hurried user meets it: a demo server that allows two attempts a minute.

let server: RunningServer;
let demo: { user: string; password: string; ui: string };

test.beforeAll(async () => {
  server = await startServer(["--demo", "--NzbDav:Ui:LoginAttemptsPerMinute=2"], /NZBDAV-DEMO url=(http:\/\/\S+) /);
  const line = /NZBDAV-DEMO url=(\S+) user=(\S+) password=(\S+) apikey=(\S+) ui=(\S+)/.exec(server.output());
  if (!line) throw new Error(`no demo line in:\n${server.output()}`);
  demo = { user: line[2]!, password: line[3]!, ui: line[5]! };
});

test.afterAll(async () => {
  await server?.stop();
});

test("after too many attempts the login page counts down the wait, and Log in waits with it", async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto(demo.ui);
  await page.getByLabel("User name").fill(demo.user);
  const login = page.getByRole("button", { name: "Log in" });
  for (let i = 0; i < 2; i++) {
    await page.getByLabel("Password").fill("not the password " + i);
    await login.click();
    await expect(page.getByRole("alert")).toHaveText("Wrong user name or password.");
  }
  // The third, even with the right password, is refused by the limit: the page says how long to wait.
  await page.getByLabel("Password").fill(demo.password);
  await login.click();
  const wait = page.getByTestId("login-wait");
  await expect(wait).toHaveText(/^Too many attempts from this address: try again in \d+ s\.$/);
  await expect(login).toBeDisabled();
  const first = Number(/in (\d+) s/.exec((await wait.textContent())!)![1]);
  expect(first).toBeGreaterThan(0);
  expect(first).toBeLessThanOrEqual(61); // the rest of a one-minute window, rounded up
  // It counts down while the page stays open.
  await expect(wait).not.toHaveText(`Too many attempts from this address: try again in ${first} s.`, { timeout: 3_000 });
  await page.screenshot({ path: "e2e-results/screenshots/login-wait.png", fullPage: true });
  // Only the refused attempts reached the console (401, 429), nothing else.
  expect(errors.every((e) => e.includes("status of 401") || e.includes("status of 429"))).toBe(true);
});
