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
// driver module says which errors count); "crash" any other error.
import { createInterface } from "node:readline";

// stdout carries the answers and nothing else: the libraries' own logging
// (the AI SDK prints its warnings with console.warn/log) goes to stderr.
for (const level of ["log", "info", "warn", "debug"]) console[level] = console.error;
globalThis.AI_SDK_LOG_WARNINGS = false;

import * as aiSdk from "./drivers/ai_sdk.mjs";
import * as anthropicSdk from "./drivers/anthropic_sdk.mjs";
import * as openaiNode from "./drivers/openai_node.mjs";

const DRIVERS = { ...aiSdk.DRIVERS, ...openaiNode.DRIVERS, ...anthropicSdk.DRIVERS };

class Stalled extends Error {}

async function runCase(request) {
  const driver = DRIVERS[request.client];
  if (driver === undefined) {
    return { crash: { type: "UnknownClient", message: `no JS client ${request.client}` } };
  }
  const controller = new AbortController();
  let stalled = false;
  const timer = setTimeout(() => {
    stalled = true;
    controller.abort(new Stalled(`deadline of ${request.timeout_ms} ms passed`));
  }, request.timeout_ms);
  try {
    const result = await driver(request, controller.signal);
    if (stalled) return { stalled: true };
    return { calls: [], invalid: [], rejected: false, reason: null, finish_reason: null, ...result };
  } catch (error) {
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
