import { expect, test } from "@playwright/test";
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
  await expect(page.getByTestId("health")).toHaveText("ok");
  await expect(page.getByText(user!, { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});
