import { expect, type Page } from "@playwright/test";

/** Collects what the page reports as errors: console errors and uncaught exceptions. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/**
 * Removes from `errors` the ones a test provoked on purpose from index `from` on, after checking
 * there are some and that each is the browser's own report of a refused request with `status`.
 */
export function expectOnlyRefusals(errors: string[], from: number, ...statuses: number[]) {
  const provoked = errors.slice(from);
  expect(provoked.length, "the refusal is reported").toBeGreaterThan(0);
  expect(provoked.every((e) => statuses.some((status) => e.includes(`status of ${status}`))), provoked.join("\n")).toBe(true);
  errors.splice(from);
}
