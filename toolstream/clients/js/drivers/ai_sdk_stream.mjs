// The Vercel AI SDK's streamText, read to the end: what every AI SDK driver
// (ai_sdk.mjs, ai_sdk_openai_compatible.mjs) shares.  It imports only "ai",
// so a driver module imports its provider package and this, nothing else.
//
// run(model, request, signal): tools declared without `execute`
// (jsonSchema(schema) as inputSchema); the "tool-call" parts of fullStream
// not marked `invalid` are the calls handed over, the invalid ones reported
// as invalid; the "finish" part's finishReason; an "error" part, or an
// AISDKError thrown while reading, is the refusal; anything else thrown
// propagates (a crash).
import { AISDKError, jsonSchema, streamText, tool } from "ai";

import { PROMPT, reasonOf } from "./common.mjs";

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

export async function run(model, request, signal) {
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
  if (refused !== null) return { rejected: true, reason: reasonOf(refused), caught: refused };
  return { calls, invalid, finish_reason: finish };
}
