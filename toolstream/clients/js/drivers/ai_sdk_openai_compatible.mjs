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
