import { expect, type Page } from "@playwright/test";

/** Logs in through the login page with the given account and waits until the header shows the user. */
export async function logIn(page: Page, account: { ui: string; user: string; password: string }) {
  await page.goto(account.ui);
  await page.getByLabel("User name").fill(account.user);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByText(account.user, { exact: true })).toBeVisible();
}

/** Follows a link of the main navigation. */
export const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true }).click();

/**
 * Waits until the page has polled `path` (a GET of the UI API) `count` more times: a value that must
 * stay as it is after later refreshes is checked after them, not after a guessed pause.
 */
export async function nextPolls(page: Page, path: string, count = 2): Promise<void> {
  for (let i = 0; i < count; i++) {
    await page.waitForResponse((response) => new URL(response.url()).pathname === path && response.request().method() === "GET" && response.ok());
  }
}

/** Waits until the browser has laid out and painted what the last change (a viewport size, a colour scheme) caused. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Adds an NZB through the SABnzbd API, as Sonarr would, and waits until the job is Completed. */
export async function addJobAndWait(page: Page, server: string, apiKey: string, job: string, nzb: Buffer): Promise<void> {
  const added = await page.request.post(`${server}/api?mode=addfile&output=json&apikey=${apiKey}&nzbname=${job}&cat=tv`, {
    multipart: { name: { name: `${job}.nzb`, mimeType: "application/x-nzb", buffer: nzb } },
  });
  expect(added.status()).toBe(200);
  await expect
    .poll(
      async () => {
        const history = (await (await page.request.get(`${server}/api?mode=history&output=json&apikey=${apiKey}`)).json()) as {
          history: { slots: { name: string; status: string }[] };
        };
        return history.history.slots.find((s) => s.name === job)?.status;
      },
      { timeout: 60_000 },
    )
    .toBe("Completed");
}
