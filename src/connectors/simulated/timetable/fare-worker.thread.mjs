// The fare worker's entry: a worker thread does not inherit the loader that runs the server's
// TypeScript (tsx, or the test runner's), so it registers tsx before loading its module.
import { register } from "tsx/esm/api";

register();
await import("./fare-worker.thread.ts");
