import { expect, test } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { accountsAndMock, listening, startMockNntp, startServer, type RunningMockNntp, type RunningServer } from "./server";
import { watchConsole } from "./console";
import { playPaced } from "./player";
import { addJobAndWait, logIn, settled } from "./pages";

// Two real nodes on one library in PostgreSQL (the server tools/test.sh sets up), sharing one mock
// provider's cap of 8 by lease: the dashboard of either shows both, their streams and their leases.

const shots = "e2e-results/screenshots";
mkdirSync(shots, { recursive: true });

const account = { user: "admin", password: "cluster dashboard 1" };
const dav = { user: "player", password: "webdav player 1" };
const apiKey = "0123456789abcdef0123456789abcdef";
const job = "Cluster.Sample";
const fileName = "mock-24MB.bin";
const server = process.env.NZBDAV_TEST_POSTGRES ?? "Host=127.0.0.1;Port=5432;Username=nzbdav;Password=nzbdav-test";
const database = `nzbdav_e2e_${process.pid}_${Date.now()}`;

let a: RunningServer;
let b: RunningServer;
let mock: RunningMockNntp;

/** psql against the test server's maintenance database (the password from the connection string). */
function psql(sql: string) {
  const part = (key: string) => new RegExp(`${key}=([^;]*)`, "i").exec(server)?.[1] ?? "";
  execFileSync("psql", ["-h", part("Host"), "-p", part("Port") || "5432", "-U", part("Username"), "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qc", sql], {
    env: { ...process.env, PGPASSWORD: part("Password") },
  });
}

test.beforeAll(async () => {
  psql(`CREATE DATABASE "${database}"`);
  mock = await startMockNntp(["--size", "24", "--segment-size", "256", "--latency", "5"]);
  const node = (name: string) => [
    ...accountsAndMock(account, dav, apiKey, mock.port),
    "--Database:Provider=postgres",
    `--Database:ConnectionString=${server};Database=${database}`,
    `--Cluster:NodeName=${name}`,
  ];
  // One after the other: the first creates the library's schema.
  a = await startServer(node("node-a"), listening);
  b = await startServer(node("node-b"), listening);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), mock?.stop()]);
  psql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
});

/** A player reading the file from node b at about `bytesPerSecond`, so the stream stays open. */
const play = (bytesPerSecond: number) =>
  playPaced(`${b.url}/content/tv/${job}/${fileName}`, `Basic ${Buffer.from(`${dav.user}:${dav.password}`).toString("base64")}`, bytesPerSecond);

test("the dashboard of one node shows every node with its streams, its cache and its share of the provider's cap", async ({ page }) => {
  const errors = watchConsole(page);
  await logIn(page, { ui: `${a.url}/ui/`, ...account });
  await addJobAndWait(page, a.url, apiKey, job, readFileSync(mock.nzb));
  await page.goto(`${a.url}/ui/`);

  const nodes = page.getByRole("region", { name: "Nodes" });
  await expect(nodes).toBeVisible();
  await expect(nodes.getByTestId("node-node-a")).toContainText("this node");
  await expect(nodes.getByTestId("node-node-b")).not.toContainText("this node");
  // Idle, the cap of 8 is split evenly and every session is leased.
  await expect(nodes.getByTestId("node-node-a-leases")).toHaveText(/^mock: 4 leased · \d+ open/, { timeout: 15_000 });
  await expect(nodes.getByTestId("node-node-b-leases")).toHaveText(/^mock: 4 leased · \d+ open/);
  await expect(nodes.getByTestId("cluster-leased")).toHaveText(/^mock: 8 leased, \d+ open across the nodes$/);

  // A player on b: a's dashboard shows b's stream at b's next heartbeat.
  const player = play(1_500_000);
  try {
    await expect.poll(player.received, { timeout: 15_000 }).toBeGreaterThan(500_000);
    await expect(nodes.getByTestId("node-node-b-streams")).toHaveText("1", { timeout: 10_000 });
    await expect(nodes.getByTestId("node-node-a-streams")).toHaveText("0");
    await expect(nodes.getByTestId("cluster-leased")).toHaveText(/^mock: 8 leased/);
    await settled(page);
    await nodes.screenshot({ path: `${shots}/cluster-nodes.png` });
  } finally {
    player.stop();
  }

  expect(errors).toEqual([]);
});
