// @ai-sdk/openai-compatible: the Vercel AI SDK's provider for servers that
// speak OpenAI's Chat Completions but are not OpenAI (its own chunk schema
// and tool-call accumulation, not @ai-sdk/openai's).
//
// ai-sdk-openai-compatible  streamText({model: createOpenAICompatible({name,
//                           baseURL, apiKey})(MODEL), tools, toolChoice}):
//                           POST <case>/v1/chat/completions, stream: true (SSE)
//
// Read as every AI SDK driver reads its stream (ai_sdk_stream.mjs): the
// "tool-call" parts not marked invalid are handed over; an "error" part or
// an AISDKError is the refusal; anything else thrown is a crash.  Client: a
// dummy key, baseURL at the case's /v1, maxRetries: 0 and the case's
// abortSignal (streamText's).
//
// Releases (`--client ai-sdk-openai-compatible==VERSION`): every one from
// 0.0.2, the first on the registry; this module imports only this provider
// and "ai" (through ai_sdk_stream.mjs), so another provider's release does
// not matter.  createOpenAICompatible({name, apiKey, baseURL}) is the same
// in every line; each major line runs under the "ai" of its provider
// specification (0.x: ai 4, 1.x: ai 5, 2.x: ai 6, the pin, 3.x: ai 7; node.py's
// OPENAI_COMPATIBLE_LINES), and ai_sdk_stream.mjs reads ai 4's stream parts.
// 3.x asks for Node.js 22 (its engines): on an older node here it runs on the
// Node.js 22 versions.py installs from npm.
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";

import { run } from "./ai_sdk_stream.mjs";
import { API_KEY, MODEL } from "./common.mjs";

export const DRIVERS = {
  "ai-sdk-openai-compatible": (request, signal) =>
    run(
      createOpenAICompatible({ name: "toolstream", apiKey: API_KEY, baseURL: request.v1 })(MODEL),
      request,
      signal,
    ),
};
