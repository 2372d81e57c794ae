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
