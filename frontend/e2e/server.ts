import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** The server as built by `dotnet build` (Debug, as tools/test.sh builds it), or NZBDAV_DLL. */
const serverDll =
  process.env.NZBDAV_DLL ?? path.resolve(import.meta.dirname, "../../backend/src/NzbDav/bin/Debug/net10.0/NzbDav.dll");

export interface RunningServer {
  url: string;
  /** The fresh data directory the server was given (removed by stop). */
  data: string;
  /** Everything the server wrote to stdout so far. */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the real server on a free loopback port with a fresh data directory and waits until its
 * output shows `ready` (a regular expression whose first group is the base URL).
 */
export async function startServer(args: string[], ready: RegExp): Promise<RunningServer> {
  if (!existsSync(serverDll)) throw new Error(`The server is not built: ${serverDll} is missing (run dotnet build first).`);
  const data = mkdtempSync(path.join(tmpdir(), "nzbdav-e2e-"));
  const child: ChildProcess = spawn("dotnet", [serverDll, "--urls", "http://127.0.0.1:0", `--NzbDav:DataDirectory=${data}`, ...args], {
    cwd: path.dirname(serverDll),
    // Without dynamic PGO: a server that lives for one spec never reaches the code PGO would
    // re-compile, and instrumenting it costs CPU the two workers and their browsers share.
    env: { ...process.env, DOTNET_NOLOGO: "1", NO_COLOR: "1", DOTNET_TieredPGO: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The server did not get ready in 60 s:\n${output}`)), 60_000);
    const check = () => {
      const match = ready.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1].replace(/\/$/, ""));
      }
    };
    child.stdout?.on("data", check);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    url,
    data,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** The address ASP.NET Core says it listens on. */
export const listening = /Now listening on: (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * The arguments of a server with an administrator, an API key, a WebDAV account and one provider:
 * the mock on `mockPort` (plain text, 8 connections).
 */
export function accountsAndMock(
  account: { user: string; password: string },
  dav: { user: string; password: string },
  apiKey: string,
  mockPort: number,
): string[] {
  return [
    `--NzbDav:Ui:AdminUser=${account.user}`,
    `--NzbDav:Ui:AdminPassword=${account.password}`,
    `--NzbDav:ApiKey=${apiKey}`,
    `--NzbDav:WebDav:User=${dav.user}`,
    `--NzbDav:WebDav:Password=${dav.password}`,
    "--Usenet:Providers:0:Name=mock",
    "--Usenet:Providers:0:Host=127.0.0.1",
    `--Usenet:Providers:0:Port=${mockPort}`,
    "--Usenet:Providers:0:UseTls=false",
    "--Usenet:Providers:0:MaxConnections=8",
  ];
}

/** The mock NNTP server as built with the backend (tools/MockNntpServer), or MOCK_NNTP_DLL. */
const mockNntpDll =
  process.env.MOCK_NNTP_DLL ?? path.resolve(import.meta.dirname, "../../tools/MockNntpServer/bin/Debug/net10.0/MockNntpServer.dll");

export interface RunningMockNntp {
  port: number;
  /** The NZB of what it serves (in a temporary folder removed by stop). */
  nzb: string;
  stop: () => Promise<void>;
}

/**
 * Starts a mock Usenet server of its own on a free loopback port (e.g. `--size 1 --user u --pass p`)
 * and waits for its `MOCK-NNTP-READY port=<N> nzb=<path>` line.
 */
export async function startMockNntp(args: string[]): Promise<RunningMockNntp> {
  if (!existsSync(mockNntpDll)) throw new Error(`The mock NNTP server is not built: ${mockNntpDll} is missing (run dotnet build first).`);
  const folder = mkdtempSync(path.join(tmpdir(), "nzbdav-e2e-nntp-"));
  const child: ChildProcess = spawn("dotnet", [mockNntpDll, "--nzb-out", path.join(folder, "mock.nzb"), ...args], {
    env: { ...process.env, DOTNET_NOLOGO: "1", DOTNET_TieredPGO: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The mock NNTP server did not get ready in 30 s:\n${output}`)), 30_000);
    child.stdout?.on("data", () => {
      const match = /MOCK-NNTP-READY port=(\d+) nzb=(\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The mock NNTP server exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    port: Number(ready[1]),
    nzb: ready[2]!,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Sends one runtime control command to a mock started with `--control` (tools/MockNntpServer, XMOCK)
 * on a connection of its own: `missing: { file, first, last, on }` makes parts first..last (1-based,
 * inclusive) of the NZB's file `file` (0-based) answer 430 (on) or come back (off); `"clear"` brings
 * everything back. Resolves with the mock's 290 line; rejects with whatever else it answered.
 */
export function controlMockNntp(
  port: number,
  command: { file: number; first: number; last: number; on: boolean } | { latencyMs: number; jitterMs?: number } | "clear",
): Promise<string> {
  const line =
    command === "clear"
      ? "XMOCK MISSING CLEAR"
      : "latencyMs" in command
        ? `XMOCK LATENCY ${command.latencyMs} ${command.jitterMs ?? 0}`
        : `XMOCK MISSING ${command.file} ${command.first} ${command.last} ${command.on ? "ON" : "OFF"}`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let buffer = "";
    let greeted = false;
    const timer = setTimeout(() => fail(new Error(`The mock NNTP server did not answer ${line} in 10 s (got: ${JSON.stringify(buffer)})`)), 10_000);
    function fail(error: Error) {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    }
    socket.setEncoding("utf8");
    socket.on("error", fail);
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const answer = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!greeted) {
          greeted = true;
          socket.write(`${line}\r\n`);
          continue;
        }
        clearTimeout(timer);
        socket.end("QUIT\r\n");
        if (answer.startsWith("290")) resolve(answer);
        else reject(new Error(`The mock NNTP server refused ${line}: ${answer}`));
        return;
      }
    });
  });
}
