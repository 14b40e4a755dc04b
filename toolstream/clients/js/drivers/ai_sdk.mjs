// The Vercel AI SDK ("ai") streamText with its providers, one driver each.
//
// ai-sdk-openai-chat      streamText({model: createOpenAI(...).chat(MODEL), tools, toolChoice}):
//                         POST <case>/v1/chat/completions, stream: true (SSE)
// ai-sdk-openai-responses streamText({model: createOpenAI(...).responses(MODEL), ...}):
//                         POST <case>/v1/responses, stream: true (SSE)
// ai-sdk-anthropic        streamText({model: createAnthropic(...)(MODEL), tools}):
//                         POST <case>/v1/messages, stream: true (SSE)
// ai-sdk-mistral          streamText({model: createMistral(...)(MODEL), ...}):
//                         POST <case>/v1/chat/completions, stream: true (SSE), Mistral's
//                         chunk schema (whole calls without an index)
// ai-sdk-amazon-bedrock   streamText({model: createAmazonBedrock(...)(MODEL), ...}):
//                         POST <case>/model/toolstream/converse-stream (Bedrock
//                         ConverseStream, AWS event-stream frames decoded by
//                         @smithy/eventstream-codec), signed with SigV4 by aws4fetch
//                         from dummy credentials (the signature is computed
//                         locally; nothing checks it)
// ai-sdk-google           streamText({model: createGoogleGenerativeAI(...)(MODEL), ...}):
//                         POST <case>/v1beta/models/toolstream:streamGenerateContent?alt=sse
//                         (Gemini API, one data: line per chunk).  A chunk whose
//                         finishReason is CONTINUATION makes the provider POST the
//                         same URL again with its continuationToken (the case again,
//                         still 127.0.0.1, still inside the case deadline)
//
// The stream is read by ai_sdk_stream.mjs (shared with
// ai_sdk_openai_compatible.mjs).  Tools are declared without `execute` (jsonSchema(schema) as inputSchema),
// so nothing runs: the calls the application would execute are the
// "tool-call" parts of result.fullStream that are not marked `invalid`
// (invalid ones, an unknown tool or input that does not parse, are reported
// as invalid: the SDK flags them and turns them into tool-error parts).
// The finish reason is the "finish" part's (the SDK's unified one:
// "tool-calls", "stop", "other"...).
//
// Client: a dummy key (apiKey for openai, anthropic, mistral, google; for
// Bedrock region us-east-1 and a dummy accessKeyId / secretAccessKey, so it
// signs rather than reading AWS_* from the environment), baseURL at the case
// on serve (the provider appends its own path), maxRetries: 0, abortSignal
// (the case deadline, which also covers a stall in the middle of the body:
// fetch aborts the body read).  Refusal, for every provider: an "error" part
// in the full stream (what a provider reports as its error: an HTTP error
// status as APICallError, a chunk its zod schema refuses as
// TypeValidationError, a Gemini error chunk, a Bedrock exception frame), or
// an AISDKError thrown while reading it.  Anything else thrown while reading
// (a TypeError from a provider's own stream transform) is a crash.
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";

import { run } from "./ai_sdk_stream.mjs";
import { API_KEY, AWS_ACCESS_KEY_ID, AWS_SECRET, MODEL } from "./common.mjs";

function openai(request) {
  return createOpenAI({ apiKey: API_KEY, baseURL: request.v1 });
}

export const DRIVERS = {
  "ai-sdk-openai-chat": (request, signal) => run(openai(request).chat(MODEL), request, signal),
  "ai-sdk-openai-responses": (request, signal) =>
    run(openai(request).responses(MODEL), request, signal),
  "ai-sdk-anthropic": (request, signal) =>
    run(createAnthropic({ apiKey: API_KEY, baseURL: request.v1 })(MODEL), request, signal),
  "ai-sdk-mistral": (request, signal) =>
    run(createMistral({ apiKey: API_KEY, baseURL: request.v1 })(MODEL), request, signal),
  "ai-sdk-amazon-bedrock": (request, signal) =>
    run(
      createAmazonBedrock({
        region: "us-east-1",
        accessKeyId: AWS_ACCESS_KEY_ID,
        secretAccessKey: AWS_SECRET,
        baseURL: request.root,
      })(MODEL),
      request,
      signal,
    ),
  "ai-sdk-google": (request, signal) =>
    run(
      createGoogleGenerativeAI({ apiKey: API_KEY, baseURL: `${request.root}/v1beta` })(MODEL),
      request,
      signal,
    ),
};
