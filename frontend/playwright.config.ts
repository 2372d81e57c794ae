import { defineConfig } from "@playwright/test";

// Playwright cannot download its browsers here: it drives Debian's chromium (tools/test.sh installs it).
export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e-results/artifacts",
  // Each spec starts its own server (free port, fresh data directory), so files run side by side:
  // two at once take about a fifth less time on two cores than one after another.
  workers: 2,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-dev-shm-usage"],
    },
    trace: "retain-on-failure",
  },
});
