// toolstream's JavaScript client runner: one node process per run, one JSON
// line per case on stdin, one JSON line per case on stdout, after a first
// line {"ready": true} once the libraries are loaded.  Cases run side by
// side (each is its own provider, request and AbortController; they share
// nothing but the event loop): an answer comes when its case is done, not in
// the order of the requests, and carries its request's "seq".
//
// A request line: {"seq": N, "client": NAME, "root": URL, "v1": URL, "tools": [[name,
// schema], ...], "tool_choice": VALUE|null, "timeout_ms": N}.  The answer:
// {"calls": [{"id", "name", "arguments"?, "input"?}], "invalid": [...],
// "rejected": bool, "reason": str|null, "finish_reason": str|null,
// "crash": {"type", "message"}|null, "stalled": bool}, with the request's "seq".
//
// Every client gets a dummy API key, retries off (maxRetries: 0), its SDK's
// timeout where it has one, and an AbortController that aborts the request
// when the case's deadline passes: "stalled" says the deadline fired before
// the library returned or raised (some SDK timeouts do not cover a stall in
// the middle of a body).  "rejected" is the library's own refusal (each
// driver module says which errors count; a driver returns the error it
// caught as "caught", which is not sent); "crash" any other error.
//
// `node run.mjs [MODULE ...]` loads only those driver modules of ./drivers
// (all of them without arguments): a release of one library installed on its
// own (`--client NAME==VERSION`, a folder holding that library and a copy of
// this runner) loads the one module that drives it.  A module that cannot be
// imported there makes the first line {"environment": "..."} instead of the
// ready line, and the runner exits 1: an import error is the environment's,
// never the library's behaviour.
import { createInterface } from "node:readline";

// stdout carries the answers and nothing else: the libraries' own logging
// (the AI SDK prints its warnings with console.warn/log) goes to stderr.
for (const level of ["log", "info", "warn", "debug"]) console[level] = console.error;
globalThis.AI_SDK_LOG_WARNINGS = false;

const MODULES = ["ai_sdk", "ai_sdk_openai_compatible", "anthropic_sdk", "openai_node"];
const DRIVERS = {};
for (const module of process.argv.length > 2 ? process.argv.slice(2) : MODULES) {
  try {
    if (!MODULES.includes(module)) throw new Error(`no driver module ${module}`);
    Object.assign(DRIVERS, (await import(`./drivers/${module}.mjs`)).DRIVERS);
  } catch (error) {
    const reason = `${error?.constructor?.name ?? typeof error}: ${error?.message ?? error}`;
    process.stdout.write(JSON.stringify({ environment: `${module}.mjs: ${reason}` }) + "\n");
    process.exit(1);
  }
}

class Stalled extends Error {}

// A promise a library rejects and nobody awaits (openai-node 4.x's
// fromReadableStream rejects an inner promise beside the one it hands over)
// ends a Node application on its defaults: the case it belongs to answers a
// crash "UnhandledRejection", not what its driver returned, and the runner
// lives on for the other cases.  It belongs to the running case that caught
// the same error; when none did, to every case running then (which one
// cannot be told, and a crash is never a green).
const running = new Set();
process.on("unhandledRejection", (reason) => {
  const owners = [...running].filter((record) => record.caught === reason);
  for (const record of owners.length ? owners : running) record.unhandled.push(reason);
  if (!running.size) console.error("unhandled rejection outside a case:", reason);
});

async function runCase(request) {
  const driver = DRIVERS[request.client];
  if (driver === undefined) {
    return { crash: { type: "UnknownClient", message: `no JS client ${request.client}` } };
  }
  const record = { caught: undefined, unhandled: [] };
  running.add(record);
  try {
    const answer = await driveCase(driver, request, record);
    // Node reports the rejections left unhandled once the microtasks drain
    await new Promise((resolve) => setImmediate(resolve));
    if (record.unhandled.length && !answer.stalled) {
      const reason = record.unhandled[0];
      const name = reason?.constructor?.name ?? typeof reason;
      const message = `${name}: ${String(reason?.message ?? reason)}`.slice(0, 500);
      return { crash: { type: "UnhandledRejection", message } };
    }
    return answer;
  } finally {
    running.delete(record);
  }
}

async function driveCase(driver, request, record) {
  const controller = new AbortController();
  let stalled = false;
  const timer = setTimeout(() => {
    stalled = true;
    controller.abort(new Stalled(`deadline of ${request.timeout_ms} ms passed`));
  }, request.timeout_ms);
  try {
    const { caught, ...result } = await driver(request, controller.signal);
    record.caught = caught; // the error a driver read as the library's refusal
    if (stalled) return { stalled: true };
    return { calls: [], invalid: [], rejected: false, reason: null, finish_reason: null, ...result };
  } catch (error) {
    record.caught = error;
    if (stalled) return { stalled: true };
    return {
      crash: {
        type: error?.constructor?.name ?? typeof error,
        message: String(error?.message ?? error).slice(0, 500),
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

// Loaded (the imports above are the slow part): the first line says so, so
// the loading is not counted against the first case's deadline.
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  // not awaited: the next line is read while this case streams
  runCase(request).then((answer) => {
    process.stdout.write(JSON.stringify({ seq: request.seq, ...answer }) + "\n");
  });
}
