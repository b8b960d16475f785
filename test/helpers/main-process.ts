import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { listenUrlFor } from "./test-database";

/**
 * The real entry point (`src/main.ts`, what `npm start` runs) as a child process, for suites
 * that start, signal, kill and restart it: startMain, then pollUntil / waitUntilHealthy /
 * exitCode, each with a deadline so a stuck process fails the suite instead of hanging it.
 */

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** Each start compiles the whole app with tsx: several seconds, far more on a loaded machine. */
export const STARTUP_DEADLINE_MS = 45_000;

export interface Running {
  child: ChildProcessWithoutNullStreams;
  /** The port it listens on (it binds port 0 and prints what it got); throws before it listens. */
  readonly port: number;
  /** e.g. http://127.0.0.1:54321; throws before it listens. */
  readonly baseUrl: string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has exited. */
  exited: Promise<number | string>;
}

const LISTENING = /^Aerogate listening on (http:\/\/[^\s]+:(\d+))$/m;

/**
 * Starts `node --import tsx src/main.ts` (or another `entry` of the repository, a script run in
 * the server's place) with the given environment; OWNER_API_KEY is never inherited. It listens on
 * port 0 (never a port picked here that something else may take meanwhile) and the port it got is
 * read from its "listening" line.
 */
export function startMain(env: Record<string, string>, entry = "src/main.ts"): Running {
  const inherited = { ...process.env };
  delete inherited.OWNER_API_KEY;
  delete inherited.DATABASE_URL;
  delete inherited.PORT;
  // Through PgBouncer (npm run test:pgbouncer) the process LISTENs on the server itself.
  const listenUrl = env.DATABASE_URL && !env.DATABASE_LISTEN_URL ? listenUrlFor(env.DATABASE_URL) : undefined;
  if (listenUrl) env = { ...env, DATABASE_LISTEN_URL: listenUrl };
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: repoRoot,
    env: { ...inherited, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "info", RATE_LIMIT_RPS: "0", SUPPLIER_LCC_LATENCY_MS: "0", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
  });
  const listening = () => {
    const match = LISTENING.exec(out);
    if (!match) throw new Error(`the process is not listening yet\nstdout:\n${out}\nstderr:\n${err}`);
    return match;
  };
  return {
    child,
    get port() {
      return Number(listening()[2]);
    },
    get baseUrl() {
      return listening()[1]!;
    },
    stdout: () => out,
    stderr: () => err,
    exited,
  };
}

/** A started process and the endpoint it serves (its port is read once it listens), with its owner key. */
export interface Launched {
  running: Running;
  api: { readonly url: string; ownerKey: string };
}

/** `startMain(env)`, recorded in `started` for the suite's `killStillRunning`. */
export function launchTracked(started: Running[], env: Record<string, string> & { OWNER_API_KEY: string }): Launched {
  const running = startMain(env);
  started.push(running);
  return { running, api: { get url() { return running.baseUrl; }, ownerKey: env.OWNER_API_KEY } };
}

/** Polls until `check` returns a value, the process exits, or the deadline passes. */
export async function pollUntil<T>(running: Running, what: string, check: () => Promise<T | undefined>, deadlineMs = STARTUP_DEADLINE_MS): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  let exitedWith: number | string | undefined;
  void running.exited.then((code) => (exitedWith = code));
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (exitedWith !== undefined) throw new Error(`process exited (${exitedWith}) before ${what}\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the process listens and /healthz answers 200. */
export function waitUntilHealthy(running: Running): Promise<true> {
  return pollUntil(running, "/healthz", async () => (LISTENING.test(running.stdout()) && (await fetch(`${running.baseUrl}/healthz`)).status === 200 ? true : undefined));
}

/** Waits for the process to exit, failing after a deadline instead of hanging the suite. */
export async function exitCode(running: Running, deadlineMs = STARTUP_DEADLINE_MS): Promise<number | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`process did not exit within ${deadlineMs} ms\nstdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`)), deadlineMs);
  });
  try {
    return await Promise.race([running.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILLs those of `started` still running and waits for them to exit (a suite's afterAll). */
export async function killStillRunning(started: readonly Running[]): Promise<void> {
  for (const running of started) {
    if (running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill("SIGKILL");
      await running.exited;
    }
  }
}
