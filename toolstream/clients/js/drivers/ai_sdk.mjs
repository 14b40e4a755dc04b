// The Vercel AI SDK ("ai") streamText with its OpenAI and Anthropic providers.
//
// ai-sdk-openai-chat      streamText({model: openai.chat(MODEL), tools, toolChoice})
// ai-sdk-openai-responses streamText({model: openai.responses(MODEL), tools, toolChoice})
// ai-sdk-anthropic        streamText({model: anthropic(MODEL), tools})
//
// Tools are declared without `execute` (jsonSchema(schema) as inputSchema),
// so nothing runs: the calls the application would execute are the
// "tool-call" parts of result.fullStream that are not marked `invalid`
// (invalid ones, an unknown tool or input that does not parse, are reported
// as invalid: the SDK flags them and turns them into tool-error parts).
// The finish reason is the "finish" part's.
//
// Client: createOpenAI / createAnthropic({apiKey: dummy, baseURL}), maxRetries:
// 0, abortSignal (the case deadline).  Refusal: an "error" part in the full
// stream, or an AISDKError thrown while reading it (APICallError for an HTTP
// error status, a stream that cannot be parsed...).  Anything else is a crash.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { AISDKError, jsonSchema, streamText, tool } from "ai";

import { API_KEY, MODEL, PROMPT, reasonOf } from "./common.mjs";

function tools(request) {
  const out = {};
  for (const [name, schema] of request.tools) out[name] = tool({ inputSchema: jsonSchema(schema) });
  return out;
}

// The AI SDK's toolChoice from an OpenAI-style one.
function toolChoice(choice) {
  if (choice == null) return undefined;
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (choice === "any") return "required";
  const name = choice?.function?.name ?? choice?.name;
  if (typeof name === "string") return { type: "tool", toolName: name };
  return undefined;
}

async function run(model, request, signal) {
  const result = streamText({
    model,
    prompt: PROMPT,
    tools: tools(request),
    toolChoice: toolChoice(request.tool_choice),
    maxRetries: 0,
    abortSignal: signal,
    onError: () => {},
  });
  const calls = [];
  const invalid = [];
  let finish = null;
  let refused = null;
  try {
    for await (const part of result.fullStream) {
      if (part.type === "tool-call") {
        const call = { id: part.toolCallId ?? null, name: part.toolName ?? null, input: part.input };
        if (part.invalid) invalid.push(JSON.stringify({ ...call, error: reasonOf(part.error) }));
        else calls.push(call);
      } else if (part.type === "error") {
        refused ??= part.error;
      } else if (part.type === "finish") {
        finish = part.finishReason ?? null;
      }
    }
  } catch (error) {
    if (AISDKError.isInstance(error)) refused ??= error;
    else throw error;
  }
  if (refused !== null) return { rejected: true, reason: reasonOf(refused) };
  return { calls, invalid, finish_reason: finish };
}

function openai(request) {
  return createOpenAI({ apiKey: API_KEY, baseURL: request.v1 });
}

export const DRIVERS = {
  "ai-sdk-openai-chat": (request, signal) => run(openai(request).chat(MODEL), request, signal),
  "ai-sdk-openai-responses": (request, signal) =>
    run(openai(request).responses(MODEL), request, signal),
  "ai-sdk-anthropic": (request, signal) =>
    run(createAnthropic({ apiKey: API_KEY, baseURL: request.v1 })(MODEL), request, signal),
};
