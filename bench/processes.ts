import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/** A port the OS reports free right now (listen on 0, read it, close). */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export interface ServerOptions {
  /** Shown in messages. */
  name: string;
  /** A TypeScript entry point, run as `node --import tsx <entry>`. */
  entry: string;
  cwd: string;
  port: number;
  /** Added to (and overriding) the bench's own environment. */
  env: Record<string, string>;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Also copy everything the process writes to this file. */
  logFile?: string;
  /** Polled until it answers 2xx. */
  healthPath: string;
  startTimeoutMs: number;
}

/** A server child process the bench started and must stop. */
export interface ServerProcess {
  name: string;
  url: string;
  pid: number | undefined;
  /** The last lines the process wrote (stdout and stderr), for diagnostics. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
  alive(): boolean;
  /** CPU seconds (user + system) the process has used so far; null where /proc is unavailable. */
  cpuSeconds(): number | null;
  /** Synchronous last resort for process `exit` handlers: SIGKILL if still running. */
  killNow(): void;
}

const OUTPUT_LINES_KEPT = 60;
/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks (100 on every mainstream build). */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of a process from /proc/<pid>/stat (Linux), or null. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * Starts `entry` in its own Node process listening on `port`. `onSpawn` receives the handle at
 * once (so the caller can always stop the process, even while it is starting); the promise
 * resolves when `healthPath` answers 2xx (polled, with a deadline). If the process dies or the
 * deadline passes, it is killed and the error carries its last output.
 */
export async function startServer(options: ServerOptions, onSpawn: (server: ServerProcess) => void): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", options.entry], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(options.port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      if (lines.length > OUTPUT_LINES_KEPT) lines.shift();
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  if (options.logFile) {
    const log = createWriteStream(options.logFile);
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once("exit", () => log.end());
  }

  let exited = child.exitCode !== null;
  const exitPromise = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      resolve();
    });
    child.once("error", (error) => {
      lines.push(`spawn error: ${error.message}`);
      exited = true;
      resolve();
    });
  });

  const url = `http://127.0.0.1:${options.port}`;
  const handle: ServerProcess = {
    name: options.name,
    url,
    pid: child.pid,
    output: () => lines.join("\n"),
    async stop(graceMs = 5000) {
      if (exited) return;
      child.kill("SIGTERM");
      const killed = await Promise.race([exitPromise.then(() => true), sleep(graceMs).then(() => false)]);
      if (!killed && !exited) {
        child.kill("SIGKILL");
        await exitPromise;
      }
    },
    alive: () => !exited,
    cpuSeconds: () => (child.pid === undefined ? null : processCpuSeconds(child.pid)),
    killNow() {
      if (!exited) child.kill("SIGKILL");
    },
  };

  onSpawn(handle);

  const deadline = Date.now() + options.startTimeoutMs;
  while (true) {
    if (exited) {
      throw new Error(`${options.name} exited before it was healthy (code ${child.exitCode}, signal ${child.signalCode}):\n${handle.output()}`);
    }
    try {
      const response = await fetch(url + options.healthPath, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return handle;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await handle.stop(1000);
      throw new Error(`${options.name} not healthy at ${url}${options.healthPath} within ${options.startTimeoutMs} ms:\n${handle.output()}`);
    }
    await sleep(100);
  }
}

/** False once any of the servers has exited. */
export function processesAlive(servers: ServerProcess[]): boolean {
  return servers.every((server) => server.alive());
}
